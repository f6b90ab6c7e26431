// Package calc is the small module the sandbox tests run `go test` on.
package calc

// Add returns a + b.
func Add(a, b int) int { return a + b }
