package main

import (
	"fmt"
	"strings"
)

func main() {
	s := "😀"
	fmt.Printf("😀 %d\n", s) // an emoji before the finding on its line
	var x int
	x = x
	if strings.Index(s, "a") != -1 {
	}
}
