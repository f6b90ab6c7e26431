package panicky

import "testing"

func TestFirst(t *testing.T) {
	if Pick([]int{1}, 0) != 1 {
		t.Error("wrong")
	}
}

func TestPick(t *testing.T) {
	Pick([]int{1, 2}, 5)
}

func TestNeverRuns(t *testing.T) {}
