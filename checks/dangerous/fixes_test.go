package dangerous

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/aisbx/aisbx/checks"
)

var update = flag.Bool("update", false, "rewrite the .golden files of testdata/fixes")

// TestFixes applies every finding's first fix to the files in
// testdata/fixes, compares the result with its golden file, and checks it
// again: a fix must resolve its finding, and only findings without a fix
// may remain.
func TestFixes(t *testing.T) {
	files, _ := filepath.Glob("testdata/fixes/fixable.*")
	var inputs []string
	for _, f := range files {
		if filepath.Ext(f) != ".golden" {
			inputs = append(inputs, f)
		}
	}
	if len(inputs) == 0 {
		t.Fatal("no inputs in testdata/fixes")
	}
	c := New(Options{TreeCacheEntries: -1})
	for _, path := range inputs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f := loadFile(t, path)
			got, err := c.Run(context.Background(), f)
			if err != nil {
				t.Fatal(err)
			}
			var edits []checks.Edit
			var unfixed []string
			for _, fd := range got {
				if len(fd.Fixes) == 0 {
					unfixed = append(unfixed, fd.Rule)
					continue
				}
				edits = append(edits, fd.Fixes[0].Edits...)
			}
			if len(edits) == 0 {
				t.Fatal("no fixes offered")
			}
			fixed := applyEdits(t, f.Content, edits)
			golden := path + ".golden"
			if *update {
				if err := os.WriteFile(golden, fixed, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestFixes -update)", err)
			}
			if !bytes.Equal(fixed, want) {
				t.Errorf("fixed file differs from %s:\n%s", golden, fixed)
			}
			again, err := c.Run(context.Background(), checks.NewFile(f.Root, f.Path, fixed))
			if err != nil {
				t.Fatal(err)
			}
			var left []string
			for _, fd := range again {
				left = append(left, fd.Rule)
			}
			sort.Strings(left)
			sort.Strings(unfixed)
			if len(left) != len(unfixed) || (len(left) > 0 && !equalStrings(left, unfixed)) {
				t.Errorf("after fixing, findings %v; want only the unfixable %v", left, unfixed)
			}
		})
	}
}

func applyEdits(t *testing.T, src []byte, edits []checks.Edit) []byte {
	t.Helper()
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start > edits[j].Start })
	out := append([]byte{}, src...)
	prev := len(src) + 1
	for _, e := range edits {
		if e.End > prev {
			t.Fatalf("overlapping edits at %d", e.Start)
		}
		out = append(out[:e.Start], append([]byte(e.NewText), out[e.End:]...)...)
		prev = e.Start
	}
	return out
}

func equalStrings(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
