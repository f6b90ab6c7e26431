package edge

import (
	tst "testing"
)

func TestMain(m *tst.M) {}

func Testlowercase(t *tst.T) {}

func Test(t *tst.T) {}

func Test_under(t *tst.T) {}

func TestÜber(t *tst.T) {}

func helper(t *tst.T) {}

func TestNotATest(x int) {}

func (s suite) TestMethod(t *tst.T) {}

func TestTable(t *tst.T) {
	for _, tc := range []struct{ name string }{{"a"}} {
		t.Run(tc.name, func(t *tst.T) {}) // not a literal: not discovered
	}
	t.Run("has space\tand tab", func(t *tst.T) {})
	t.Run("regexp.chars+[x]", func(t *tst.T) {})
	t.Run(`raw "quoted"`, func(u *tst.T) {
		u.Run("deeper", func(t *tst.T) {
			t.Log("cursor here") // CURSOR
		})
	})
}

func BenchmarkSort(b *tst.B) {
	b.Run("small", func(b *tst.B) {})
}

func FuzzParse(f *tst.F) {}

func Example() {}

func ExampleSort_stable() {}

func ExampleBad(x int) {}

type suite struct{}
