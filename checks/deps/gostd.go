package deps

import (
	"context"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// stdLib is the set of Go standard library packages: the built-in list of Go
// 1.26, joined once with the list read from the host toolchain's GOROOT (in
// the background, so the first check does not wait for it).
type stdLib struct {
	goRoot string
	once   sync.Once
	set    atomic.Pointer[map[string]bool]
}

var (
	stdLibsMu sync.Mutex
	stdLibs   = map[string]*stdLib{}
)

// sharedStdLib returns the one stdLib of a GOROOT setting, so that checks
// built from the same config read the toolchain once.
func sharedStdLib(goRoot string) *stdLib {
	stdLibsMu.Lock()
	defer stdLibsMu.Unlock()
	s, ok := stdLibs[goRoot]
	if !ok {
		s = &stdLib{goRoot: goRoot}
		stdLibs[goRoot] = s
	}
	return s
}

func (s *stdLib) has(path string) bool {
	s.once.Do(func() {
		m := dataSet("go-std.txt")
		s.set.Store(&m)
		go s.addToolchain()
	})
	return (*s.set.Load())[path]
}

func (s *stdLib) addToolchain() {
	defer func() {
		if p := recover(); p != nil {
			slog.Error("deps: reading the Go standard library list panicked", "panic", p)
		}
	}()
	root := s.goRoot
	if root == "" {
		root = os.Getenv("GOROOT")
	}
	if root == "" {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
		cancel()
		if err != nil {
			slog.Debug("deps: no Go toolchain; using the built-in standard library list", "err", err)
			return
		}
		root = strings.TrimSpace(string(out))
	}
	pkgs, err := goRootPackages(root)
	if err != nil {
		slog.Debug("deps: reading GOROOT failed; using the built-in standard library list", "goroot", root, "err", err)
		return
	}
	old := *s.set.Load()
	m := make(map[string]bool, len(old)+len(pkgs))
	for k := range old {
		m[k] = true
	}
	for _, p := range pkgs {
		m[p] = true
	}
	s.set.Store(&m)
}

// goRootPackages lists the packages under GOROOT/src as `go list std` does,
// but for every GOOS, GOARCH and GOEXPERIMENT: directories holding .go
// files, without cmd/, vendor/, testdata and names starting with "." or "_".
func goRootPackages(goroot string) ([]string, error) {
	src := filepath.Join(goroot, "src")
	seen := map[string]bool{}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != src && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if rel, _ := filepath.Rel(src, p); rel == "cmd" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") {
			if rel, err := filepath.Rel(src, filepath.Dir(p)); err == nil && rel != "." {
				seen[filepath.ToSlash(rel)] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	return out, nil
}
