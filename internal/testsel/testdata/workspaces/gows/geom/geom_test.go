package geom

import "testing"

func TestArea(t *testing.T) {
	if got := Area(2, 3); got != 6 {
		t.Errorf("Area(2, 3) = %d, want 6", got)
	}
}

func TestPerimeter(t *testing.T) {
	if got := Perimeter(2, 3); got != 10 {
		t.Errorf("Perimeter(2, 3) = %d, want 10", got) // FAILS-HERE with breaks/gows applied
	}
}
