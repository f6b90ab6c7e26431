package main

import "fmt"

const pinned = "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"

func main() {
	token := "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"
	dbPassword := "3r565#82?F@P5azn"
	fmt.Println(token, dbPassword, pinned)
}
