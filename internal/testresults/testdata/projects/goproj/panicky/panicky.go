package panicky

// Pick returns xs[i] without checking i.
func Pick(xs []int, i int) int {
	return xs[i] // PANICS-HERE TestPick
}
