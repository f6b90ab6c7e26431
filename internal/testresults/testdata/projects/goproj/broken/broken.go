package broken

func Broken() int {
	return undefinedThing // BUILD-FAILS-HERE
}
