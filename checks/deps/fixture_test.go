package deps

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/textpos"
)

// want is one expectation written in a fixture: `want RULE "TEXT" fix="NEW"`
// at the end of the line the finding must start on.
type want struct {
	rule, text, fix string
}

var wantRE = regexp.MustCompile(`want ([a-z0-9-]+) "([^"]*)"(?: fix="([^"]*)")?`)

func wantsOf(src []byte) map[int][]want {
	out := map[int][]want{}
	for i, line := range strings.Split(string(src), "\n") {
		for _, m := range wantRE.FindAllStringSubmatch(line, -1) {
			out[i] = append(out[i], want{rule: m[1], text: m[2], fix: m[3]})
		}
	}
	return out
}

func abs(t testing.TB, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runFile runs c on a fixture file and returns its findings.
func runFile(t testing.TB, c *Check, root, rel string) (*checks.File, []checks.Finding, error) {
	t.Helper()
	path := abs(t, rel)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := checks.NewFile(abs(t, root), path, src)
	f.OnDisk = true
	if !c.Applies(f) {
		t.Fatalf("%s: check does not apply", rel)
	}
	fs, err := c.Run(context.Background(), f)
	return f, fs, err
}

// checkWants compares findings with the file's want markers, both ways.
func checkWants(t *testing.T, f *checks.File, fs []checks.Finding) {
	t.Helper()
	idx := textpos.NewIndex(f.Content)
	wants := wantsOf(f.Content)
	got := map[int][]checks.Finding{}
	for _, fd := range fs {
		got[idx.LineOf(fd.Start)] = append(got[idx.LineOf(fd.Start)], fd)
		if fd.Category != checks.CategoryDependency || fd.DocURL == "" || fd.Message == "" || fd.Severity == 0 {
			t.Errorf("%s: incomplete finding %+v", f.Rel(), fd)
		}
	}
	for line, ws := range wants {
		gs := got[line]
		if len(gs) != len(ws) {
			t.Errorf("%s:%d: want %d finding(s) %v, got %d: %v", f.Rel(), line+1, len(ws), ws, len(gs), messages(gs))
			continue
		}
		for i, w := range ws {
			fd := gs[i]
			if fd.Rule != w.rule {
				t.Errorf("%s:%d: rule %s, want %s", f.Rel(), line+1, fd.Rule, w.rule)
			}
			if text := string(f.Content[fd.Start:fd.End]); text != w.text {
				t.Errorf("%s:%d: finding covers %q, want %q", f.Rel(), line+1, text, w.text)
			}
			if w.fix != "" && !hasFix(fd, w.fix) {
				t.Errorf("%s:%d: no fix to %q in %+v (%s)", f.Rel(), line+1, w.fix, fd.Fixes, fd.Message)
			}
		}
	}
	for line, gs := range got {
		if _, ok := wants[line]; !ok {
			t.Errorf("%s:%d: unexpected finding(s): %v", f.Rel(), line+1, messages(gs))
		}
	}
}

func hasFix(fd checks.Finding, text string) bool {
	for _, fx := range fd.Fixes {
		for _, e := range fx.Edits {
			if e.NewText == text {
				return true
			}
		}
	}
	return false
}

func messages(fs []checks.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule+": "+f.Message)
	}
	return out
}

// TestImports runs the check over the fixture workspaces: every hallucinated
// or misspelled import is flagged with the right range and fix, and nothing
// else (standard library, declared, installed, local, aliased, optional,
// imports inside strings and comments) is.
func TestImports(t *testing.T) {
	tests := []struct {
		root  string
		files []string
	}{
		{"go/app", []string{"go/app/main.go", "go/app/server.go"}},
		{"go/vendored", []string{"go/vendored/main.go"}},
		{"go/work", []string{"go/work/a/a.go"}},
		{"go/nomodule", []string{"go/nomodule/x.go"}},
		{"py/proj", []string{"py/proj/src/mypkg/core.py", "py/proj/src/mypkg/service.py", "py/proj/scripts/run.py"}},
		{"py/poetry", []string{"py/poetry/app/views.py"}},
		{"py/bare", []string{"py/bare/script.py"}},
		{"js/proj", []string{"js/proj/src/App.tsx", "js/proj/src/components/List.tsx"}},
		{"js/node-cjs", []string{"js/node-cjs/lib/server.js"}},
		{"js/bare", []string{"js/bare/x.js"}},
	}
	c := New(Options{GoModCache: abs(t, "gomodcache")})
	for _, tt := range tests {
		for _, rel := range tt.files {
			t.Run(rel, func(t *testing.T) {
				f, fs, err := runFile(t, c, tt.root, rel)
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
				checkWants(t, f, fs)
			})
		}
	}
}
