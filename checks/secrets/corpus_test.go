package secrets

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/textpos"
)

// setFiles reads every file of a generated set.
func setFiles(t testing.TB, set string) (root string, files map[string][]byte) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("testdata", set))
	if err != nil {
		t.Fatal(err)
	}
	files = map[string][]byte{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		data, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return root, files
}

// findingsAsExpectations runs fn over each file and turns findings into
// "path:line rule" form.
func findingsAsExpectations(t testing.TB, root string, files map[string][]byte, run func(f *checks.File) []checks.Finding) []expectation {
	t.Helper()
	var got []expectation
	for rel, data := range files {
		f := checks.NewFile(root, filepath.Join(root, filepath.FromSlash(rel)), data)
		idx := textpos.NewIndex(data)
		for _, fd := range run(f) {
			got = append(got, expectation{path: rel, line: idx.LineOf(fd.Start) + 1, rule: fd.Rule})
		}
	}
	return got
}

// diffExpectations returns the planted secrets that were missed and the
// findings nobody planted.
func diffExpectations(want, got []expectation) (missed, extra []string) {
	w := map[string]int{}
	for _, e := range want {
		w[e.String()]++
	}
	for _, g := range got {
		if w[g.String()] > 0 {
			w[g.String()]--
			continue
		}
		extra = append(extra, g.String())
	}
	for k, n := range w {
		for ; n > 0; n-- {
			missed = append(missed, k)
		}
	}
	sort.Strings(missed)
	sort.Strings(extra)
	return missed, extra
}

func mustCheck(t testing.TB, opts Options) *Check {
	t.Helper()
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPlantedSets asserts full recall and no false positive on every
// generated set, each scanned the way it is meant to be: the corpus with the
// check alone, the engine set through checks.Engine (suppression comments),
// the gitleaks workspace with its .gitleaks.toml honoured.
func TestPlantedSets(t *testing.T) {
	tests := []struct {
		set    string
		opts   Options
		engine bool
	}{
		{set: "corpus", opts: DefaultOptions()},
		{set: "fixes", opts: DefaultOptions()},
		{set: "engine", opts: DefaultOptions(), engine: true},
		{set: "gitleaks-workspace", opts: DefaultOptions()},
		{set: "gitleaks-old-config", opts: DefaultOptions()},
	}
	for _, tc := range tests {
		t.Run(tc.set, func(t *testing.T) {
			t.Parallel()
			want, err := readExpected(tc.set)
			if err != nil {
				t.Fatal(err)
			}
			c := mustCheck(t, tc.opts)
			eng := checks.NewEngine(checks.Options{CacheEntries: -1}, c)
			root, files := setFiles(t, tc.set)
			got := findingsAsExpectations(t, root, files, func(f *checks.File) []checks.Finding {
				if tc.engine {
					r := eng.Run(context.Background(), f)
					if len(r.Errors) > 0 {
						t.Errorf("%s: %v", f.Path, r.Errors)
					}
					return r.Findings
				}
				fs, err := c.Run(context.Background(), f)
				if err != nil {
					t.Errorf("%s: %v", f.Path, err)
				}
				return fs
			})
			missed, extra := diffExpectations(want, got)
			for _, m := range missed {
				t.Errorf("missed %s", m)
			}
			for _, e := range extra {
				t.Errorf("false positive %s", e)
			}
			if len(want) == 0 {
				t.Fatal("the set plants nothing")
			}
		})
	}
}

// TestFindingShape checks what every finding carries: the category, a
// range that is exactly the secret, a doc link, a fingerprint of the value
// and a message that does not contain it.
func TestFindingShape(t *testing.T) {
	c := mustCheck(t, DefaultOptions())
	root, files := setFiles(t, "corpus")
	n := 0
	for rel, data := range files {
		f := checks.NewFile(root, filepath.Join(root, rel), data)
		fs, err := c.Run(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range fs {
			n++
			secret := string(data[fd.Start:fd.End])
			if fd.Category != checks.CategorySecret || fd.DocURL != checks.RuleDocURL(fd.Rule) || fd.Fingerprint != Fingerprint(secret) {
				t.Errorf("%s %s: bad shape %+v", rel, fd.Rule, fd)
			}
			if leaks(fd.Message, secret) {
				t.Errorf("%s %s: message leaks the secret: %q", rel, fd.Rule, fd.Message)
			}
			for _, fx := range fd.Fixes {
				if leaks(fx.Title, secret) {
					t.Errorf("%s %s: fix title leaks the secret", rel, fd.Rule)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no findings")
	}
}

// leaks reports whether text holds any 8 consecutive characters of the
// secret's private part: what follows the public prefix Redact shows, and
// for a key block, its body.
func leaks(text, secret string) bool {
	rest := strings.TrimPrefix(secret, strings.SplitN(Redact(secret), "…", 2)[0])
	if strings.HasPrefix(secret, "-----BEGIN") {
		body := secret[strings.Index(secret, "KEY-----")+8:]
		rest = body[:strings.Index(body, "-----END")]
	}
	for i := 0; i+8 <= len(rest); i++ {
		if strings.Contains(text, rest[i:i+8]) {
			return true
		}
	}
	return false
}
