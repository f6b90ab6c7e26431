package testsel

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestDiscover lists the tests of every file in testdata/discover and of the
// sample workspaces' test files, and compares with the .golden files: kind,
// name, the declaration's first line, and the selector each would run with.
func TestDiscover(t *testing.T) {
	files, err := filepath.Glob("testdata/discover/*")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files,
		"testdata/workspaces/gows/mathx/mathx_test.go",
		"testdata/workspaces/pyws/tests/unit/test_legacy.py",
		"testdata/workspaces/jsws/test/strings.test.js",
	)
	for _, f := range files {
		if strings.HasSuffix(f, ".golden") {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			// A .src suffix keeps a deliberately broken file away from
			// gofmt; it is discovered under its name without it.
			tests, err := Discover(strings.TrimSuffix(filepath.Base(f), ".src"), src)
			if err != nil {
				t.Fatal(err)
			}
			got := renderTests(tests, src)
			golden := "testdata/discover/" + filepath.Base(f) + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("discovered tests differ from %s:\n got:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

func renderTests(tests []Test, src []byte) string {
	var b strings.Builder
	for _, t := range tests {
		line := bytes.Count(src[:t.Start], []byte("\n")) + 1
		name := string(src[t.NameStart:t.NameEnd])
		fmt.Fprintf(&b, "%-9s line %-3d %-40q name-text=%s", t.Kind, line, t.Name(), name)
		if t.Lang == LangGo {
			fmt.Fprintf(&b, " run=%s", GoRunPattern(t.Path))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestTestAt finds the innermost test around marked offsets.
func TestTestAt(t *testing.T) {
	cases := []struct {
		file, marker, want string
	}{
		{"testdata/discover/edge_test.go", "// CURSOR", "TestTable/raw \"quoted\"/deeper"},
		{"testdata/discover/edge_test.go", "func Test_under", "Test_under"},
		{"testdata/discover/test_edge.py", "# CURSOR-PY-PLAIN", "test_plain"},
		{"testdata/discover/test_edge.py", "# CURSOR-PY-METHOD", "TestGroup::test_one"},
		{"testdata/discover/test_edge.py", "def helper(self)", "TestGroup"},
		{"testdata/discover/edge.test.ts", "// CURSOR-JS-FIRST", "outer > first"},
		{"testdata/discover/edge.test.ts", "it.each", "outer"},
		{"testdata/workspaces/gows/mathx/mathx_test.go", "Mul(0, 7)", "TestMul/with zero/left"},
	}
	for _, c := range cases {
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		tests, err := Discover(filepath.Base(c.file), src)
		if err != nil {
			t.Fatal(err)
		}
		off := bytes.Index(src, []byte(c.marker))
		if off < 0 {
			t.Fatalf("%s: marker %q not found", c.file, c.marker)
		}
		got, ok := TestAt(tests, off)
		if !ok || got.Name() != c.want {
			t.Errorf("%s at %q: got %q (found %v), want %q", c.file, c.marker, got.Name(), ok, c.want)
		}
	}
	src := []byte("package x\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n")
	tests, _ := Discover("x_test.go", src)
	if _, ok := TestAt(tests, 3); ok {
		t.Error("an offset outside every test found one")
	}
}

// FuzzDiscover: no file content makes discovery panic, in any language.
func FuzzDiscover(f *testing.F) {
	files, _ := filepath.Glob("testdata/discover/*")
	for _, p := range files {
		if strings.HasSuffix(p, ".golden") {
			continue
		}
		if src, err := os.ReadFile(p); err == nil {
			f.Add(strings.TrimSuffix(filepath.Base(p), ".src"), src)
		}
	}
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		for _, n := range []string{name, "x_test.go", "test_x.py", "x.test.ts", "x.spec.tsx", "x.test.js"} {
			tests, err := Discover(n, src)
			if err != nil {
				continue
			}
			for _, tc := range tests {
				if tc.Start < 0 || tc.End > len(src) || tc.Start > tc.End || tc.NameStart < tc.Start || tc.NameEnd > tc.End {
					t.Fatalf("%s: bad range %+v in %d bytes", n, tc, len(src))
				}
			}
		}
	})
}
