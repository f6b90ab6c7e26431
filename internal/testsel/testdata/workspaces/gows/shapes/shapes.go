// Package shapes describes squares in terms of rectangles.
package shapes

import "example.com/gows/geom"

// SquareArea of a side×side square.
func SquareArea(side int) int { return geom.Area(side, side) }
