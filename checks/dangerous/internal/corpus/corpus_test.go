package corpus

import (
	"reflect"
	"testing"
)

func TestWantsAndCompare(t *testing.T) {
	src := []byte("a = eval(x)  # want: py-eval\nb = 1\nc(x) // want: go-weak-hash, go-weak-cipher\nd /* want: js-eval */\n")
	wants := Wants(src)
	want := []Want{{1, "py-eval"}, {3, "go-weak-hash"}, {3, "go-weak-cipher"}, {4, "js-eval"}}
	if !reflect.DeepEqual(wants, want) {
		t.Fatalf("Wants = %v, want %v", wants, want)
	}
	got := []Got{
		{Line: 1, Rules: []string{"py-eval"}, Label: "B307"},
		{Line: 1, Rules: []string{"py-eval"}, Label: "B307"}, // a repeat: ignored
		{Line: 2, Rules: []string{"py-eval"}, Label: "B307"}, // no expectation: a false alarm
		{Line: 3, Rules: []string{"go-weak-hash", "go-weak-cipher"}, Label: "G401"},
	}
	s := Compare(wants, got)
	if s.Found != 2 || len(s.Extra) != 1 || s.Extra[0].Line != 2 || len(s.Missed) != 2 {
		t.Fatalf("score = %+v", s)
	}
}

func TestCompareNear(t *testing.T) {
	wants := []Want{{10, "go-sql-injection"}, {20, "py-eval"}}
	got := []Got{
		{Line: 8, Rules: []string{"go-sql-injection"}, Label: "G202"}, // built two lines up
		{Line: 20, Rules: []string{"py-eval"}, Label: "B307"},
		{Line: 30, Rules: []string{"py-eval"}, Label: "B307"}, // too far: a false alarm
	}
	if s := Compare(wants, got); s.Found != 1 || len(s.Missed) != 1 || len(s.Extra) != 2 {
		t.Errorf("exact: %+v", s)
	}
	if s := CompareNear(wants, got, 3); s.Found != 2 || len(s.Missed) != 0 || len(s.Extra) != 1 || s.Extra[0].Line != 30 {
		t.Errorf("near: %+v", s)
	}
}
