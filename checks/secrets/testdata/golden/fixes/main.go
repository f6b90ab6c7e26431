package main

import (
	"fmt"
	"os"
)

const pinned = "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"

func main() {
	token := os.Getenv("GITHUB_TOKEN")
	dbPassword := os.Getenv("DB_PASSWORD")
	fmt.Println(token, dbPassword, pinned)
}
