package dangerous

import (
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

func TestDiffEdit(t *testing.T) {
	tests := []struct {
		old, new string
		want     sitter.InputEdit
	}{
		{"a\nbc\nd", "a\nbXc\nd", sitter.InputEdit{StartByte: 3, OldEndByte: 3, NewEndByte: 4,
			StartPosition: sitter.Point{Row: 1, Column: 1}, OldEndPosition: sitter.Point{Row: 1, Column: 1}, NewEndPosition: sitter.Point{Row: 1, Column: 2}}},
		{"ab\ncd\n", "ab\n", sitter.InputEdit{StartByte: 3, OldEndByte: 6, NewEndByte: 3,
			StartPosition: sitter.Point{Row: 1}, OldEndPosition: sitter.Point{Row: 2}, NewEndPosition: sitter.Point{Row: 1}}},
		{"same", "same", sitter.InputEdit{StartByte: 4, OldEndByte: 4, NewEndByte: 4,
			StartPosition: sitter.Point{Column: 4}, OldEndPosition: sitter.Point{Column: 4}, NewEndPosition: sitter.Point{Column: 4}}},
		{"aaa", "aaaa", sitter.InputEdit{StartByte: 3, OldEndByte: 3, NewEndByte: 4, // the common suffix may not overlap the prefix
			StartPosition: sitter.Point{Column: 3}, OldEndPosition: sitter.Point{Column: 3}, NewEndPosition: sitter.Point{Column: 4}}},
	}
	for _, tt := range tests {
		if got := diffEdit([]byte(tt.old), []byte(tt.new)); got != tt.want {
			t.Errorf("diffEdit(%q, %q) = %+v, want %+v", tt.old, tt.new, got, tt.want)
		}
	}
}

func TestTreeCacheEvicts(t *testing.T) {
	c := newTreeCache(2)
	defer c.close()
	for _, p := range []string{"/a.py", "/b.py", "/c.py"} {
		tree, err := pyGrammar.parse(t.Context(), []byte("x = 1\n"), c, p)
		if err != nil {
			t.Fatal(err)
		}
		tree.Close()
	}
	if c.order.Len() != 2 || c.take("python\x00/a.py") != nil {
		t.Fatalf("cache holds %d trees; the oldest should be gone", c.order.Len())
	}
	got := c.take("python\x00/c.py")
	if got == nil || string(got.src) != "x = 1\n" {
		t.Fatalf("take = %+v", got)
	}
	got.tree.Close()
	if c.take("python\x00/c.py") != nil {
		t.Error("a taken tree is still cached")
	}
}
