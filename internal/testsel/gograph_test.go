package testsel

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// goListPackage is the part of `go list -json` the Go graph must agree with.
type goListPackage struct {
	ImportPath   string
	Dir          string
	Imports      []string
	TestImports  []string
	XTestImports []string
	TestGoFiles  []string
	XTestGoFiles []string
}

func goList(ctx context.Context, dir string) ([]goListPackage, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-json=ImportPath,Dir,Imports,TestImports,XTestImports,TestGoFiles,XTestGoFiles", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+runtime.GOARCH, "CGO_ENABLED=1", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var pkgs []goListPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p goListPackage
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		// go list resolves vendored imports to vendor/...; the graph keeps
		// them as written, as edges to packages outside the workspace.
		for _, l := range []*[]string{&p.Imports, &p.TestImports, &p.XTestImports} {
			for i, imp := range *l {
				(*l)[i] = strings.TrimPrefix(imp, "vendor/")
			}
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// TestGoGraphMatchesGoList: the package graph read with go/build is the one
// the go command sees, on the sample workspace and (without -short) on the
// standard library.
func TestGoGraphMatchesGoList(t *testing.T) {
	needTool(t, "go")
	roots := []string{"testdata/workspaces/gows", "testdata/workspaces/gows/tools"}
	if !testing.Short() {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			t.Fatal(err)
		}
		roots = append(roots, filepath.Join(strings.TrimSpace(string(out)), "src"))
	}
	for _, root := range roots {
		t.Run(filepath.Base(root), func(t *testing.T) {
			want, err := goList(t.Context(), root)
			if err != nil {
				t.Fatal(err)
			}
			s := New(root, Options{})
			w, err := loadWorkspace(t.Context(), root, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			pkgs, err := s.goDirs.goPackages(t.Context(), w, goBuildContext(s.opts.GOOS, s.opts.GOARCH))
			if err != nil {
				t.Fatal(err)
			}
			byPath := map[string]*goPkg{}
			for _, p := range pkgs {
				byPath[p.importPath] = p
			}
			for _, lp := range want {
				p := byPath[lp.ImportPath]
				if p == nil {
					t.Errorf("%s: missing from the graph", lp.ImportPath)
					continue
				}
				if !sameSet(p.imports, lp.Imports) {
					t.Errorf("%s imports: got %v, go list %v", lp.ImportPath, p.imports, lp.Imports)
				}
				if !sameSet(p.testImports, append(append([]string(nil), lp.TestImports...), lp.XTestImports...)) {
					t.Errorf("%s test imports: got %v, go list %v + %v", lp.ImportPath, p.testImports, lp.TestImports, lp.XTestImports)
				}
				if p.hasTests != (len(lp.TestGoFiles)+len(lp.XTestGoFiles) > 0) {
					t.Errorf("%s: hasTests %v disagrees with go list", lp.ImportPath, p.hasTests)
				}
			}
			t.Logf("%d packages agree", len(want))
		})
	}
}

func sameSet(a, b []string) bool {
	norm := func(s []string) []string {
		m := map[string]bool{}
		for _, x := range s {
			m[x] = true
		}
		out := make([]string, 0, len(m))
		for x := range m {
			out = append(out, x)
		}
		sort.Strings(out)
		return out
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

// TestGoRunPatternSelectsExactlyThatTest runs `go test -run` with the
// pattern of every discovered test and subtest of the sample package and
// checks that the go command runs that test and no sibling.
func TestGoRunPatternSelectsExactlyThatTest(t *testing.T) {
	needTool(t, "go")
	dir := filepath.Join("testdata", "workspaces", "gows")
	src, err := os.ReadFile(filepath.Join(dir, "mathx", "mathx_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	tests, err := Discover("mathx_test.go", src)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "mathx.test")
	build := exec.CommandContext(t.Context(), "go", "test", "-c", "-o", bin, "./mathx")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the test binary: %v\n%s", err, out)
	}
	for _, tc := range tests {
		if tc.Kind == KindBenchmark || tc.Kind == KindExample {
			continue
		}
		pattern := GoRunPattern(tc.Path)
		cmd := exec.CommandContext(t.Context(), bin, "-test.v", "-test.run", pattern)
		cmd.Dir = filepath.Join(dir, "mathx")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", pattern, err, out)
		}
		var ran []string
		for _, line := range strings.Split(string(out), "\n") {
			if name, ok := strings.CutPrefix(line, "=== RUN   "); ok {
				ran = append(ran, name)
			}
		}
		// The test and its ancestors run; its descendants run too.
		want := goRunName(tc.Path)
		for _, r := range ran {
			if r != want && !strings.HasPrefix(want, r+"/") && !strings.HasPrefix(r, want+"/") {
				t.Errorf("-run %s ran %s, which is not %s or its parent or child", pattern, r, want)
			}
		}
		if !contains(ran, want) {
			t.Errorf("-run %s did not run %s; ran %v", pattern, want, ran)
		}
	}
}

// goRunName is the name `go test -v` prints for a test path.
func goRunName(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = goRewriteName(p)
	}
	return strings.Join(parts, "/")
}
