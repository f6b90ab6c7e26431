package calc

import (
	"fmt"
	"testing"
)

func TestDiv(t *testing.T) {
	t.Log("dividing")
	if Div(6, 3) != 2 {
		t.Fatal("6/3 != 2")
	}
}

func TestSkipped(t *testing.T) {
	t.Skip("not on this platform") // SKIP-HERE
}

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b int
		want int
	}{{"six by three", 6, 3, 2}, {"ten by five", 10, 5, 2}} {
		t.Run(tc.name, func(t *testing.T) {
			fmt.Println("stdout from", tc.name)
			if got := Div(tc.a, tc.b); got != tc.want {
				t.Errorf("Div(%d, %d) = %d", tc.a, tc.b, got)
			}
		})
	}
}
