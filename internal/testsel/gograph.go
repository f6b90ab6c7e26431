package testsel

import (
	"context"
	"errors"
	"fmt"
	"go/build"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
)

// goModule is a Go module of the workspace.
type goModule struct {
	Dir  string // workspace-relative
	Path string // module path; "" for the standard library's module "std"
}

// goPkg is what selection needs of a Go package: where it is and what its
// code and its tests import.
type goPkg struct {
	dir         string // workspace-relative
	importPath  string
	module      string // module dir
	imports     []string
	testImports []string // of _test.go files, internal and external
	hasTests    bool
}

type goDirEntry struct {
	sig string
	pkg *goPkg // nil: no buildable package
}

// goDirCache remembers parsed package directories between selections; an
// entry is reused while the names, sizes and mtimes of its .go files hold.
type goDirCache struct {
	mu   sync.Mutex
	dirs map[string]goDirEntry
}

func findGoModules(w *workspace) ([]goModule, error) {
	var mods []goModule
	for _, f := range w.files {
		if path.Base(f) != "go.mod" || isFixturePath(f) || goSkippedDir(path.Dir(f)) {
			continue
		}
		data, err := w.read(f)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", f, err)
		}
		mp := modfile.ModulePath(data)
		if mp == "" {
			continue // not a module file we can read; its changes still fall back
		}
		if mp == "std" {
			mp = ""
		}
		mods = append(mods, goModule{Dir: path.Dir(f), Path: mp})
	}
	sort.Slice(mods, func(i, j int) bool { return depth(mods[i].Dir) > depth(mods[j].Dir) })
	return mods, nil
}

func depth(dir string) int {
	if dir == "." {
		return -1
	}
	return strings.Count(dir, "/")
}

// goSkippedDir reports directories the go command never treats as packages
// of ./...: testdata, vendor, and names starting with "." or "_".
func goSkippedDir(dir string) bool {
	if dir == "." {
		return false
	}
	for _, e := range strings.Split(dir, "/") {
		if e == "testdata" || e == "vendor" || strings.HasPrefix(e, ".") || strings.HasPrefix(e, "_") {
			return true
		}
	}
	return false
}

// goModuleOf returns the deepest module containing dir.
func (w *workspace) goModuleOf(dir string) (goModule, bool) {
	for _, m := range w.goModules {
		if within(dir, m.Dir) {
			return m, true
		}
	}
	return goModule{}, false
}

func goImportPath(m goModule, dir string) string {
	rel := relTo(dir, m.Dir)
	switch {
	case rel == ".":
		return m.Path
	case m.Path == "":
		return rel
	}
	return m.Path + "/" + rel
}

// goPackages parses every package directory of the workspace's modules,
// reusing cached directories, in parallel.
func (c *goDirCache) goPackages(ctx context.Context, w *workspace, bctx *build.Context) (map[string]*goPkg, error) {
	byDir := map[string][]string{}
	for _, f := range w.files {
		if !strings.HasSuffix(f, ".go") {
			continue
		}
		dir := path.Dir(f)
		if goSkippedDir(dir) {
			continue
		}
		byDir[dir] = append(byDir[dir], path.Base(f))
	}
	type job struct {
		dir   string
		sig   string
		cache bool
	}
	var jobs []job
	pkgs := make(map[string]*goPkg, len(byDir))
	c.mu.Lock()
	if c.dirs == nil {
		c.dirs = map[string]goDirEntry{}
	}
	for dir := range c.dirs { // forget directories that are gone
		if _, ok := byDir[dir]; !ok {
			delete(c.dirs, dir)
		}
	}
	for dir, names := range byDir {
		m, ok := w.goModuleOf(dir)
		if !ok || goSkippedDir(relTo(dir, m.Dir)) {
			continue
		}
		sig, overlaid := w.goDirSignature(dir, names)
		sig = m.Path + "\x00" + m.Dir + "\x00" + sig // a renamed module renames its packages
		if e, ok := c.dirs[dir]; ok && !overlaid && e.sig == sig {
			if e.pkg != nil {
				pkgs[dir] = e.pkg
			}
			continue
		}
		jobs = append(jobs, job{dir: dir, sig: sig, cache: !overlaid})
	}
	c.mu.Unlock()

	var mu sync.Mutex
	var firstErr error
	parallel(ctx, jobs, func(j job) {
		m, _ := w.goModuleOf(j.dir)
		p, err := parseGoDir(bctx, w, m, j.dir)
		mu.Lock()
		defer mu.Unlock()
		if err != nil && firstErr == nil {
			firstErr = err
		}
		if p != nil {
			pkgs[j.dir] = p
		}
		if j.cache && err == nil {
			c.mu.Lock()
			c.dirs[j.dir] = goDirEntry{sig: j.sig, pkg: p}
			c.mu.Unlock()
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return pkgs, firstErr
}

// goDirSignature identifies the state of a directory's .go files; overlaid
// reports that an unsaved buffer replaces one of them.
func (w *workspace) goDirSignature(dir string, names []string) (sig string, overlaid bool) {
	b := make([]byte, 0, 48*len(names))
	for _, n := range names {
		rel := n
		if dir != "." {
			rel = dir + "/" + n
		}
		if _, ok := w.overlay[rel]; ok {
			overlaid = true
		}
		b = append(b, n...)
		fi, err := os.Stat(filepath.Join(w.root, filepath.FromSlash(rel)))
		if err != nil {
			b = append(b, ":missing;"...)
			continue
		}
		b = append(b, ':')
		b = strconv.AppendInt(b, fi.Size(), 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, fi.ModTime().UnixNano(), 10)
		b = append(b, ';')
	}
	return string(b), overlaid
}

// parseGoDir reads a package directory the way the go command would for the
// target platform: go/build evaluates build constraints and reads only the
// import blocks.
func parseGoDir(bctx *build.Context, w *workspace, m goModule, dir string) (*goPkg, error) {
	abs := filepath.Join(w.root, filepath.FromSlash(dir))
	ctx := *bctx
	if len(w.overlay) > 0 {
		ctx.OpenFile = func(p string) (io.ReadCloser, error) {
			if rel, err := filepath.Rel(w.root, p); err == nil {
				if b, ok := w.overlay[filepath.ToSlash(rel)]; ok {
					return io.NopCloser(strings.NewReader(string(b))), nil
				}
			}
			return os.Open(p)
		}
	}
	bp, err := ctx.ImportDir(abs, 0)
	if err != nil {
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			return nil, nil
		}
		// A package with a syntax error or mixed package names still has the
		// imports of its good files; selection goes on with them.
		if bp == nil {
			return nil, nil
		}
	}
	p := &goPkg{
		dir:        dir,
		importPath: goImportPath(m, dir),
		module:     m.Dir,
		imports:    bp.Imports,
		hasTests:   len(bp.TestGoFiles)+len(bp.XTestGoFiles) > 0,
	}
	p.testImports = append(append([]string(nil), bp.TestImports...), bp.XTestImports...)
	return p, nil
}

// goBuildContext is the build context of the sandbox the tests run in.
func goBuildContext(goos, goarch string) *build.Context {
	ctx := build.Default
	if goos != "" {
		ctx.GOOS = goos
	}
	if goarch != "" {
		ctx.GOARCH = goarch
	}
	ctx.CgoEnabled = true
	ctx.Dir = ""
	return &ctx
}

func goLibNode(importPath string) string  { return "go:" + importPath }
func goTestNode(importPath string) string { return "go:" + importPath + " [test]" }

// addGoEdges adds the packages' import edges to g.
func addGoEdges(g *depGraph, pkgs map[string]*goPkg) {
	for _, p := range pkgs {
		lib := goLibNode(p.importPath)
		for _, imp := range p.imports {
			g.add(lib, goLibNode(imp), viaImport)
		}
		if !p.hasTests {
			continue
		}
		test := goTestNode(p.importPath)
		g.add(test, lib, viaOwnTests)
		for _, imp := range p.testImports {
			if imp != p.importPath {
				g.add(test, goLibNode(imp), viaTestImport)
			}
		}
	}
}
