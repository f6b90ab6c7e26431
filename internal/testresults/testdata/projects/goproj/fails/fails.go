package fails

// Greeting is wrong on purpose.
func Greeting(name string) string { return "hello " + name }
