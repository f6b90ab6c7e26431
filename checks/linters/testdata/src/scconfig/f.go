package scconfig

func F() {}
