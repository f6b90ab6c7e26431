package main

import (
	"fmt"
	"os"

	"golang.org/x/net/html"
	"golang.org/x/text/language"
)

func main() {
	tag, err := language.Parse(os.Args[1])
	fmt.Println(tag, err, html.EscapeString("<b>"))
}
