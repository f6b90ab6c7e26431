package lint

import "testing"

func TestDouble(t *testing.T) {
	if Double(4) != 8 {
		t.Error("Double(4) != 8")
	}
}
