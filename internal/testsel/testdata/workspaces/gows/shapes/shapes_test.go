package shapes

import "testing"

func TestSquareArea(t *testing.T) {
	if got := SquareArea(3); got != 9 {
		t.Fatalf("SquareArea(3) = %d, want 9", got)
	}
}
