// Package lint lives in a nested module and depends on the outer one.
package lint

import "example.com/gows/mathx"

// Double returns 2n.
func Double(n int) int { return mathx.Mul(n, 2) }
