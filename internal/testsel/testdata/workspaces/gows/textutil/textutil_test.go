package textutil

import (
	"os"
	"strings"
	"testing"
)

func TestReverse(t *testing.T) {
	if got := Reverse("abc"); got != "cba" {
		t.Errorf("Reverse(abc) = %q", got)
	}
}

func TestGolden(t *testing.T) {
	b, err := os.ReadFile("testdata/golden.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := Reverse(strings.TrimSpace(string(b))); got != "olleh" {
		t.Errorf("got %q", got)
	}
}
