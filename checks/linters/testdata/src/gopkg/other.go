package main

import (
	"fmt"
	"os"
)

func helper() {
	fmt.Println("%s", 1)
	os.Remove("x") // 😀
}
