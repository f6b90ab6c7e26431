package testsel

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goRootSrc is $GOROOT/src: the standard library, a large Go workspace
// (module std, plus module cmd below it). Benchmarks only read it.
func goRootSrc(b *testing.B) string {
	b.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}

// stdChange is the one-file change the selection benchmarks make: a small
// internal package of net/http.
const stdChange = "net/http/internal/ascii/print.go"

// BenchmarkSelectStd measures selecting the tests a one-file change to the
// standard library affects: cold (a new Selector parses every package) and
// warm (the daemon's case: the cache is checked by file stats). It reports
// the fraction of std's test packages selected.
func BenchmarkSelectStd(b *testing.B) {
	root := goRootSrc(b)
	report := func(b *testing.B, sel *Selection) {
		for _, p := range sel.Plans {
			if p.Lang == LangGo && p.Dir == "." {
				b.ReportMetric(float64(len(p.Units)), "selected")
				b.ReportMetric(float64(p.Total), "std-test-pkgs")
				b.ReportMetric(100*float64(len(p.Units))/float64(p.Total), "%selected")
			}
		}
	}
	b.Run("cold", func(b *testing.B) {
		var sel *Selection
		for b.Loop() {
			var err error
			sel, err = New(root, Options{}).Select(context.Background(), Request{Changed: []string{stdChange}})
			if err != nil {
				b.Fatal(err)
			}
		}
		report(b, sel)
	})
	b.Run("warm", func(b *testing.B) {
		s := New(root, Options{})
		if _, err := s.Select(context.Background(), Request{Changed: []string{stdChange}}); err != nil {
			b.Fatal(err)
		}
		var sel *Selection
		for b.Loop() {
			var err error
			sel, err = s.Select(context.Background(), Request{Changed: []string{stdChange}})
			if err != nil {
				b.Fatal(err)
			}
		}
		report(b, sel)
	})
}

// BenchmarkGoListStd is the reference: the go command's own package graph
// of the standard library, as `go list -deps -test -json` (the issue's
// suggestion) and as the narrower `go list -json=<fields>` that gives the
// same edges.
func BenchmarkGoListStd(b *testing.B) {
	root := goRootSrc(b)
	for _, args := range [][]string{
		{"list", "-e", "-deps", "-test", "-json", "./..."},
		{"list", "-e", "-json=ImportPath,Dir,Imports,TestImports,XTestImports", "./..."},
	} {
		name := "deps-test"
		if strings.HasPrefix(args[2], "-json=") {
			name = "fields"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command("go", args...)
				cmd.Dir = root
				if out, err := cmd.Output(); err != nil || len(out) == 0 {
					b.Fatalf("go %v: %v", args, err)
				}
			}
		})
	}
}

// BenchmarkSelectPythonStdlib selects the tests of a change to json's
// decoder in CPython's standard library (its test/ package is the suite):
// about 2,000 modules parsed with tree-sitter.
func BenchmarkSelectPythonStdlib(b *testing.B) {
	root := "/usr/lib/python3.11"
	if _, err := os.Stat(filepath.Join(root, "json", "decoder.py")); err != nil {
		b.Skipf("no CPython standard library at %s", root)
	}
	req := Request{Changed: []string{"json/decoder.py"}}
	report := func(b *testing.B, sel *Selection) {
		b.ReportMetric(float64(sel.Selected), "selected")
		b.ReportMetric(float64(sel.Total), "test-files")
	}
	b.Run("cold", func(b *testing.B) {
		var sel *Selection
		for b.Loop() {
			var err error
			if sel, err = New(root, Options{}).Select(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
		report(b, sel)
	})
	b.Run("warm", func(b *testing.B) {
		s := New(root, Options{})
		if _, err := s.Select(context.Background(), req); err != nil {
			b.Fatal(err)
		}
		var sel *Selection
		for b.Loop() {
			var err error
			if sel, err = s.Select(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
		report(b, sel)
	})
}

// BenchmarkDiscover lists the tests of large test files, as code lenses do
// on every edit: net/http's serve_test.go (Go), CPython's test_descr.py
// (Python), and a generated TypeScript file with 2,000 tests in suites.
func BenchmarkDiscover(b *testing.B) {
	var ts strings.Builder
	for i := range 200 {
		fmt.Fprintf(&ts, "describe('suite %d', () => {\n", i)
		for j := range 10 {
			fmt.Fprintf(&ts, "  it(`case %d`, async () => { const x: number = %d; expect(x).toBe(%d); });\n", j, j, j)
		}
		ts.WriteString("});\n")
	}
	files := map[string][]byte{"generated.test.ts": []byte(ts.String())}
	for name, p := range map[string]string{
		"serve_test.go": filepath.Join(goRootSrc(b), "net", "http", "serve_test.go"),
		"test_descr.py": "/usr/lib/python3.11/test/test_descr.py",
	} {
		if data, err := os.ReadFile(p); err == nil {
			files[name] = data
		}
	}
	for name, src := range files {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			var n int
			for b.Loop() {
				tests, err := Discover(name, src)
				if err != nil {
					b.Fatal(err)
				}
				n = len(tests)
			}
			b.ReportMetric(float64(n), "tests")
		})
	}
}
