package mathx

import (
	"fmt"
	"testing"
)

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestMul(t *testing.T) {
	t.Run("small numbers", func(t *testing.T) {
		if got := Mul(2, 3); got != 6 {
			t.Errorf("Mul(2, 3) = %d, want 6", got)
		}
	})
	t.Run("with zero", func(st *testing.T) {
		st.Run("left", func(t *testing.T) {
			if Mul(0, 7) != 0 {
				t.Error("0*7 != 0")
			}
		})
		st.Run("a/b (c)", func(t *testing.T) {})
	})
}

func BenchmarkAdd(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Add(i, i)
	}
}

func FuzzAdd(f *testing.F) {
	f.Add(1, 2)
	f.Fuzz(func(t *testing.T, a, b int) {
		if Add(a, b) != Add(b, a) {
			t.Fatal("Add is not commutative")
		}
	})
}

func ExampleAdd() {
	fmt.Println(Add(1, 2))
	// Output: 3
}
