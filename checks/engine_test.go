package checks

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// wordCheck flags every occurrence of a word; a real check, just a tiny one.
type wordCheck struct {
	word  string
	rule  string
	cat   Category
	calls atomic.Int32
}

func (c *wordCheck) Name() string         { return "word:" + c.word }
func (c *wordCheck) Applies(f *File) bool { return true }
func (c *wordCheck) Run(ctx context.Context, f *File) ([]Finding, error) {
	c.calls.Add(1)
	var out []Finding
	s := string(f.Content)
	for i := 0; ; {
		j := strings.Index(s[i:], c.word)
		if j < 0 {
			return out, nil
		}
		out = append(out, Finding{Rule: c.rule, Category: c.cat, Severity: SeverityWarning, Start: i + j, End: i + j + len(c.word), Message: "found " + c.word})
		i += j + len(c.word)
	}
}

type slowCheck struct{}

func (slowCheck) Name() string         { return "slow" }
func (slowCheck) Applies(f *File) bool { return true }
func (slowCheck) Run(ctx context.Context, f *File) ([]Finding, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

type panicCheck struct{}

func (panicCheck) Name() string         { return "panics" }
func (panicCheck) Applies(f *File) bool { return true }
func (panicCheck) Run(ctx context.Context, f *File) ([]Finding, error) {
	panic("broken invariant")
}

func TestEngineSuppressions(t *testing.T) {
	src := strings.Join([]string{
		"x = eval(a)",
		"y = eval(b)  # aisbx:ignore",
		"# aisbx:ignore[py-eval]",
		"z = eval(c)",
		"w = eval(d)  # aisbx:ignore[other-rule]",
		"token = 'SECRET'  # gitleaks:allow",
	}, "\n")
	e := NewEngine(Options{}, &wordCheck{word: "eval", rule: "py-eval", cat: CategoryDangerous},
		&wordCheck{word: "SECRET", rule: "generic-secret", cat: CategorySecret})
	r := e.Run(context.Background(), NewFile("/w", "/w/a.py", []byte(src)))
	var lines []int
	for _, f := range r.Findings {
		lines = append(lines, strings.Count(src[:f.Start], "\n"))
	}
	if len(lines) != 2 || lines[0] != 0 || lines[1] != 4 {
		t.Fatalf("findings on lines %v, want [0 4]: %+v", lines, r.Findings)
	}
	fix := r.Findings[0].Fixes[len(r.Findings[0].Fixes)-1]
	if fix.Edits[0].NewText != "# aisbx:ignore[py-eval]\n" || fix.Edits[0].Start != 0 {
		t.Errorf("suppress fix = %+v", fix)
	}
}

func TestEngineCachesByContent(t *testing.T) {
	c := &wordCheck{word: "eval", rule: "py-eval"}
	e := NewEngine(Options{}, c)
	f := NewFile("", "/a.py", []byte("eval(x)"))
	r1 := e.Run(context.Background(), f)
	r2 := e.Run(context.Background(), f)
	if c.calls.Load() != 1 || !r2.Cached || len(r1.Findings) != 1 || len(r2.Findings) != 1 {
		t.Fatalf("calls=%d cached=%v findings=%d/%d", c.calls.Load(), r2.Cached, len(r1.Findings), len(r2.Findings))
	}
	e.Run(context.Background(), NewFile("", "/a.py", []byte("eval(y)")))
	if c.calls.Load() != 2 {
		t.Fatalf("changed content not re-checked: calls=%d", c.calls.Load())
	}
	e.Invalidate()
	e.Run(context.Background(), f)
	if c.calls.Load() != 3 {
		t.Fatalf("Invalidate did not drop the cache: calls=%d", c.calls.Load())
	}
}

func TestEngineTimeoutAndPanicAreErrors(t *testing.T) {
	e := NewEngine(Options{Timeout: 50 * time.Millisecond}, slowCheck{}, panicCheck{}, &wordCheck{word: "x", rule: "r"})
	r := e.Run(context.Background(), NewFile("", "/f.txt", []byte("x")))
	if len(r.Findings) != 1 {
		t.Errorf("the healthy check's finding is lost: %+v", r.Findings)
	}
	if len(r.Errors) != 2 {
		t.Fatalf("errors = %v, want a timeout and a panic", r.Errors)
	}
	for _, ce := range r.Errors {
		if ce.Err == nil || errors.Is(ce.Err, context.Canceled) {
			t.Errorf("unexpected error %v", ce)
		}
	}
}

func TestEngineDisabledAndSeverity(t *testing.T) {
	e := NewEngine(Options{DisabledRules: []string{"a"}, Severity: map[string]Severity{"b": SeverityError}},
		&wordCheck{word: "aa", rule: "a"}, &wordCheck{word: "bb", rule: "b"})
	r := e.Run(context.Background(), NewFile("", "/f.go", []byte("aa bb")))
	if len(r.Findings) != 1 || r.Findings[0].Rule != "b" || r.Findings[0].Severity != SeverityError {
		t.Fatalf("findings = %+v", r.Findings)
	}
	if got := r.Findings[0].Fixes[0].Edits[0].NewText; got != "// aisbx:ignore[b]\n" {
		t.Errorf("Go suppress comment = %q", got)
	}
}

func TestDetectLanguage(t *testing.T) {
	tests := map[string]Language{"a.py": LangPython, "x/Dockerfile": LangDockerfile, "b.tsx": LangTypeScript, "c": LangText, "m/go.mod": LangGoMod}
	for name, want := range tests {
		if got := DetectLanguage(name, nil); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if got := DetectLanguage("script", []byte("#!/usr/bin/env python3\n")); got != LangPython {
		t.Errorf("shebang: %s", got)
	}
}

// packageCheck stands for a linter: its findings depend on other files.
type packageCheck struct{ wordCheck }

func (*packageCheck) Uncacheable() {}

func TestUncacheableChecksRunEveryTime(t *testing.T) {
	word := &wordCheck{word: "x", rule: "w"}
	pkg := &packageCheck{wordCheck{word: "x", rule: "p"}}
	e := NewEngine(Options{}, word, pkg)
	f := NewFile("", "/f.go", []byte("x"))
	for i := 0; i < 3; i++ {
		r := e.Run(context.Background(), f)
		if len(r.Findings) != 2 {
			t.Fatalf("run %d: findings = %+v", i, r.Findings)
		}
	}
	if word.calls.Load() != 1 || pkg.calls.Load() != 3 {
		t.Fatalf("cacheable ran %d times (want 1), uncacheable %d (want 3)", word.calls.Load(), pkg.calls.Load())
	}
}

func TestPerCheckTimeoutAndMaxSize(t *testing.T) {
	e := NewEngine(Options{Timeout: time.Hour, CheckTimeouts: map[string]time.Duration{"slow": 30 * time.Millisecond}}, slowCheck{})
	r := e.Run(context.Background(), NewFile("", "/f", []byte("x")))
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Error(), "30ms") {
		t.Fatalf("errors = %v", r.Errors)
	}
	e = NewEngine(Options{MaxFileSize: 2}, &wordCheck{word: "x", rule: "w"})
	if r := e.Run(context.Background(), NewFile("", "/f", []byte("xxx"))); r.Skipped == "" || len(r.Findings) != 0 {
		t.Fatalf("oversized file checked: %+v", r)
	}
}

// goOnly is a Preparer that applies to Go files and records what it was
// handed.
type goOnly struct {
	wordCheck
	prepared []string
}

func (c *goOnly) Applies(f *File) bool { return f.Language == LangGo }

func (c *goOnly) Prepare(_ context.Context, files []*File) {
	for _, f := range files {
		c.prepared = append(c.prepared, f.Path)
	}
}

// TestPrepareHandsEachCheckItsFiles: a batching check gets the files it
// applies to, in order; the others are not asked.
func TestPrepareHandsEachCheckItsFiles(t *testing.T) {
	g := &goOnly{wordCheck: wordCheck{word: "x"}}
	e := NewEngine(Options{}, &wordCheck{word: "y"}, g)
	var files []*File
	for _, p := range []string{"/w/a.go", "/w/b.py", "/w/c.go"} {
		files = append(files, NewFile("/w", p, nil))
	}
	e.Prepare(context.Background(), files)
	if want := []string{"/w/a.go", "/w/c.go"}; !slices.Equal(g.prepared, want) {
		t.Fatalf("prepared %v, want %v", g.prepared, want)
	}
}
