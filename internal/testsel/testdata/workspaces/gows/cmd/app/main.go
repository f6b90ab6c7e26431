// Command app prints an area; it has no tests.
package main

import (
	"fmt"

	"example.com/gows/geom"
)

func main() { fmt.Println(geom.Area(2, 3)) }
