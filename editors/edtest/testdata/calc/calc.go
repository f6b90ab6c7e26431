package calc

// Add is wrong on purpose: TestAdd must catch it.
func Add(a, b int) int { return a - b }

func Sub(a, b int) int { return a - b }
