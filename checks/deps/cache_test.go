package deps

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/testfs"
)

func appendFile(t testing.TB, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// flagged lists the texts the engine's findings cover.
func flagged(f *checks.File, r checks.Result) string {
	var out []string
	for _, fd := range r.Findings {
		out = append(out, string(f.Content[fd.Start:fd.End]))
	}
	return strings.Join(out, " ")
}

// TestEngineInvalidation drives the check through checks.Engine as the
// daemon does: the engine caches results by content, so after a manifest
// or a local module changes, DependsOn tells the caller to Invalidate, and
// the check's own caches notice the change by stat.
func TestEngineInvalidation(t *testing.T) {
	steps := []struct {
		name     string
		root     string
		file     string
		before   string // a flagged text before the change
		change   func(t *testing.T, root string) string
		created  bool
		resolved bool
	}{
		{"requirement added", "py/proj", "src/mypkg/core.py", "numpy",
			func(t *testing.T, root string) string {
				p := filepath.Join(root, "requirements.txt")
				appendFile(t, p, "numpy>=2\n")
				return p
			}, false, true},
		{"local module created", "py/proj", "src/mypkg/core.py", "fastjsonparse",
			func(t *testing.T, root string) string {
				p := filepath.Join(root, "src", "fastjsonparse.py")
				if err := os.WriteFile(p, []byte("def loads(s): pass\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}, true, true},
		{"package uninstalled", "py/proj", "src/mypkg/core.py", "",
			func(t *testing.T, root string) string {
				p := filepath.Join(root, ".venv", "lib", "python3.11", "site-packages", "six.py")
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				return p
			}, true, false},
		{"npm dependency added", "js/proj", "src/App.tsx", "axios",
			func(t *testing.T, root string) string {
				p := filepath.Join(root, "package.json")
				b, _ := os.ReadFile(p)
				b = []byte(strings.Replace(string(b), `"react": "^18.3.1",`, `"react": "^18.3.1", "axios": "^1.7.0",`, 1))
				if err := os.WriteFile(p, b, 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}, false, true},
		{"go module required", "go/app", "main.go", "github.com/sirupsen/logrus",
			func(t *testing.T, root string) string {
				p := filepath.Join(root, "go.mod")
				appendFile(t, p, "\nrequire github.com/sirupsen/logrus v1.9.3\n")
				return p
			}, false, true},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			root := testfs.TempCopy(t, abs(t, st.root))
			if st.root == "go/app" {
				// The replace points at ../lib; bring it along.
				lib := testfs.TempCopy(t, abs(t, "go/lib"))
				b, _ := os.ReadFile(filepath.Join(root, "go.mod"))
				if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(strings.Replace(string(b), "../lib", lib, 1)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c := New(Options{GoModCache: abs(t, "gomodcache")})
			e := checks.NewEngine(checks.Options{}, c)
			path := filepath.Join(root, st.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f := checks.NewFile(root, path, src)
			before := flagged(f, e.Run(context.Background(), f))
			target := st.before
			if target == "" {
				target = "six"
			}
			if was := strings.Contains(" "+before+" ", " "+target+" "); was != st.resolved {
				t.Fatalf("before the change: %q flagged=%v (findings: %s)", target, was, before)
			}
			changed := st.change(t, root)
			if r := e.Run(context.Background(), f); !r.Cached {
				t.Fatalf("the engine did not cache the result")
			}
			if !c.DependsOn(changed, st.created) {
				t.Fatalf("DependsOn(%s, %v) = false", changed, st.created)
			}
			e.Invalidate()
			after := flagged(f, e.Run(context.Background(), f))
			if got := strings.Contains(" "+after+" ", " "+target+" "); got == st.resolved {
				t.Errorf("after the change: %q flagged=%v, want %v (findings: %s)", target, got, !st.resolved, after)
			}
		})
	}
}

func TestDependsOn(t *testing.T) {
	c := New(Options{})
	tests := []struct {
		path    string
		created bool
		want    bool
	}{
		{"/w/go.mod", false, true},
		{"/w/go.work", false, true},
		{"/w/vendor/modules.txt", false, true},
		{"/w/requirements-dev.txt", false, true},
		{"/w/requirements/base.txt", false, true},
		{"/w/pyproject.toml", false, true},
		{"/w/poetry.lock", false, true},
		{"/w/package.json", false, true},
		{"/w/pnpm-lock.yaml", false, true},
		{"/w/tsconfig.base.json", false, true},
		{"/w/.git/HEAD", false, true},
		{"/w/.git/refs/heads/main", false, true},
		{"/w/.venv/lib/python3.11/site-packages/yaml", true, true},
		{"/w/node_modules/axios", true, true},
		{"/w/src/app.py", false, false},
		{"/w/src/app.py", true, true},
		{"/w/pkg/new", true, true},
		{"/w/README.md", false, false},
		{"/w/README.md", true, false},
		{"/w/.git/objects/ab/cdef", true, false},
	}
	for _, tt := range tests {
		if got := c.DependsOn(tt.path, tt.created); got != tt.want {
			t.Errorf("DependsOn(%s, %v) = %v, want %v", tt.path, tt.created, got, tt.want)
		}
	}
}

// TestConcurrentRuns runs every fixture from many goroutines at once; with
// -race it proves the shared caches are safe.
func TestConcurrentRuns(t *testing.T) {
	c := New(Options{GoModCache: abs(t, "gomodcache")})
	files := [][2]string{
		{"go/app", "go/app/main.go"}, {"py/proj", "py/proj/src/mypkg/core.py"},
		{"js/proj", "js/proj/src/App.tsx"}, {"js/node-cjs", "js/node-cjs/lib/server.js"},
	}
	want := map[string]int{}
	for _, fl := range files {
		_, fs, err := runFile(t, c, fl[0], fl[1])
		if err != nil {
			t.Fatal(err)
		}
		want[fl[1]] = len(fs)
	}
	fresh := New(Options{GoModCache: abs(t, "gomodcache")})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		for _, fl := range files {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, fs, err := runFile(t, fresh, fl[0], fl[1])
				if err != nil || len(fs) != want[fl[1]] {
					t.Errorf("%s: %d findings, err %v; want %d", fl[1], len(fs), err, want[fl[1]])
				}
			}()
		}
	}
	wg.Wait()
}

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }
