package secrets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"testing"

	"github.com/aisbx/aisbx/checks"
)

// TestPrefilterFindsEveryKeyword compares the automaton with a naive
// case-insensitive search over every corpus file.
func TestPrefilterFindsEveryKeyword(t *testing.T) {
	s := newScanner(DefaultEntropyThreshold, nil)
	keywords := s.keywords
	for _, set := range []string{"corpus", "fixes"} {
		_, files := setFiles(t, set)
		for rel, data := range files {
			lower := bytes.ToLower(data)
			var want []hit
			for id, kw := range keywords {
				for off := 0; ; {
					i := bytes.Index(lower[off:], []byte(kw))
					if i < 0 {
						break
					}
					want = append(want, hit{kw: int32(id), end: int32(off + i + len(kw))})
					off += i + 1
				}
			}
			got := s.pf.scan(data, nil)
			norm := func(hs []hit) []string {
				var out []string
				for _, h := range hs {
					out = append(out, fmt.Sprintf("%s@%d", keywords[h.kw], h.end))
				}
				sort.Strings(out)
				return out
			}
			w, g := norm(want), norm(got)
			if len(w) != len(g) {
				t.Errorf("%s/%s: %d hits, want %d", set, rel, len(g), len(w))
				continue
			}
			for i := range w {
				if w[i] != g[i] {
					t.Errorf("%s/%s: hit %s, want %s", set, rel, g[i], w[i])
					break
				}
			}
		}
	}
}

// TestAppliesToTextOnly: binary files (a NUL in the first 8000 bytes) and
// empty ones are skipped; everything else is scanned.
func TestAppliesToTextOnly(t *testing.T) {
	c := mustCheck(t, DefaultOptions())
	root, files := setFiles(t, "corpus")
	for rel, data := range files {
		f := checks.NewFile(root, filepath.Join(root, rel), data)
		if !c.Applies(f) {
			t.Errorf("%s: text file not scanned", rel)
		}
		bin := append([]byte{0x7f, 'E', 'L', 'F', 0}, data...)
		if c.Applies(checks.NewFile(root, filepath.Join(root, rel), bin)) {
			t.Errorf("%s with a NUL: binary file scanned", rel)
		}
	}
	if c.Applies(checks.NewFile(root, filepath.Join(root, "empty"), nil)) {
		t.Error("empty file scanned")
	}
}

// TestRunStopsWhenCancelled: a cancelled context ends a long scan with the
// context's error.
func TestRunStopsWhenCancelled(t *testing.T) {
	c := mustCheck(t, DefaultOptions())
	root, files := setFiles(t, "corpus")
	big := bytes.Repeat(files["config.go"], 200)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Run(ctx, checks.NewFile(root, filepath.Join(root, "big.go"), big))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
