// Package geom measures rectangles.
package geom

import "example.com/gows/mathx"

// Area of a w×h rectangle.
func Area(w, h int) int { return mathx.Mul(w, h) }

// Perimeter of a w×h rectangle. (Broken on purpose: it forgets to double.)
func Perimeter(w, h int) int { return mathx.Add(w, h) }
