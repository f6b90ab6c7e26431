package deps

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// goCaches holds the parsed Go module files of every workspace seen.
type goCaches struct {
	modCache string
	mods     fileCache[*goMod]
	works    fileCache[*goWork]
	vendors  fileCache[map[string]bool]
	// inCache remembers, for module@version/subdir in the module cache,
	// whether that directory exists. The cache is immutable once a module is
	// extracted, so answers never go stale.
	inCache sync.Map // string -> bool
}

// goMod is what resolution needs from a go.mod.
type goMod struct {
	dir      string
	path     string
	requires map[string]string // module path -> version
	replaces map[string]goReplace
}

type goReplace struct {
	path, version string
	dir           string // set when the replacement is a local directory
}

type goWork struct {
	modules map[string]*goMod // module path -> its go.mod
}

func parseGoMod(path string, data []byte) (*goMod, error) {
	f, err := modfile.Parse(path, data, nil)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return goModFrom(f, filepath.Dir(path)), nil
}

func goModFrom(f *modfile.File, dir string) *goMod {
	m := &goMod{dir: dir, requires: map[string]string{}, replaces: map[string]goReplace{}}
	if f.Module != nil {
		m.path = f.Module.Mod.Path
	}
	for _, r := range f.Require {
		m.requires[r.Mod.Path] = r.Mod.Version
	}
	for _, r := range f.Replace {
		rep := goReplace{path: r.New.Path, version: r.New.Version}
		if r.New.Version == "" && modfile.IsDirectoryPath(r.New.Path) {
			rep.dir = r.New.Path
			if !filepath.IsAbs(rep.dir) {
				rep.dir = filepath.Join(dir, rep.dir)
			}
		}
		m.replaces[r.Old.Path] = rep
	}
	return m
}

func (c *Check) parseGoWork(path string, data []byte) (*goWork, error) {
	f, err := modfile.ParseWork(path, data, nil)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	w := &goWork{modules: map[string]*goMod{}}
	for _, u := range f.Use {
		dir := u.Path
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(path), dir)
		}
		m, ok, err := c.goW.mods.get(filepath.Join(dir, "go.mod"), parseGoMod)
		if ok && err == nil && m.path != "" {
			w.modules[m.path] = m
		}
	}
	return w, nil
}

// parseVendor reads vendor/modules.txt: the packages vendored, one a line
// after each "# module version" header.
func parseVendor(_ string, data []byte) (map[string]bool, error) {
	pk := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pk[line] = true
	}
	return pk, sc.Err()
}

func defaultModCache() string {
	if v := os.Getenv("GOMODCACHE"); v != "" {
		return v
	}
	if v := os.Getenv("GOPATH"); v != "" {
		return filepath.Join(filepath.SplitList(v)[0], "pkg", "mod")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, "go", "pkg", "mod")
	}
	return ""
}

// goEnv is everything one Go file's imports resolve against.
type goEnv struct {
	c       *Check
	main    *goMod
	work    *goWork // nil outside a go.work workspace
	vendor  map[string]bool
	hasVend bool
	mods    []*goMod
	known   []string // module paths of the workspace and its requires
}

// goRun resolves the imports of one file against a shared goEnv, with the
// directory checks of this run memoised.
type goRun struct {
	*goEnv
	isDir map[string]bool
}

// dirExists is the package-level dirExists, memoised for the run.
func (e *goRun) dirExists(p string) bool {
	if v, ok := e.isDir[p]; ok {
		return v
	}
	if e.isDir == nil {
		e.isDir = map[string]bool{}
	}
	v := dirExists(p)
	e.isDir[p] = v
	return v
}

// goEnvFor finds the go.mod that governs dir (nearest above it, bounded by
// root) and the go.work above that, if any. It returns nil when there is no
// go.mod: GOPATH-mode code is not checked.
func (c *Check) goEnvFor(dir, root string) (*goEnv, error) {
	for _, d := range c.ancestors(dir, root) {
		if !c.dirs.list(d).has("go.mod") {
			continue
		}
		m, ok, err := c.goW.mods.get(filepath.Join(d, "go.mod"), parseGoMod)
		if !ok {
			continue
		}
		if err != nil {
			return nil, err
		}
		env := &goEnv{c: c, main: m}
		if os.Getenv("GOWORK") != "off" {
			for _, wd := range c.ancestors(d, root) {
				if c.dirs.list(wd).has("go.work") {
					w, ok, err := c.goW.works.get(filepath.Join(wd, "go.work"), c.parseGoWork)
					if ok && err == nil {
						env.work = w
					}
					break
				}
			}
		}
		if env.work == nil && c.dirs.list(d).isDir("vendor") {
			v, ok, _ := c.goW.vendors.get(filepath.Join(d, "vendor", "modules.txt"), parseVendor)
			env.vendor, env.hasVend = v, ok
		}
		env.modules() // filled now: the env is shared read-only afterwards
		return env, nil
	}
	return nil, nil
}

// goVerdict is the outcome of resolving one import path.
type goVerdict int

const (
	goOK             goVerdict = iota
	goNotStd                   // no dot in the first element, and not in std
	goNoModule                 // no required module provides it
	goMissingPackage           // the providing module has no such directory
	goNotVendored              // vendor/ is in use and lacks it
)

// resolve decides one import path. mod is the module that provides it (for
// messages), when there is one. The longest module path that prefixes the
// import wins, as in the go command, so nested modules resolve correctly.
func (e *goRun) resolve(path string) (v goVerdict, mod string) {
	if path == "C" || e.c.std.has(path) {
		return goOK, ""
	}
	if e.hasVend && e.vendor[path] {
		return goOK, ""
	}
	mods := e.modules()
	for p := path; ; {
		for _, m := range mods {
			if p == m.path {
				sub, _ := within(path, p)
				if e.dirExists(filepath.Join(m.dir, filepath.FromSlash(sub))) {
					return goOK, ""
				}
				return goMissingPackage, p
			}
		}
		for _, m := range mods {
			if rep, ok := m.replaces[p]; ok {
				return e.inReplacement(path, p, rep)
			}
			if ver, ok := m.requires[p]; ok {
				if e.hasVend {
					return goNotVendored, p
				}
				return e.inModCache(path, p, ver), p
			}
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	first := path
	if i := strings.IndexByte(first, '/'); i >= 0 {
		first = first[:i]
	}
	if !strings.Contains(first, ".") {
		return goNotStd, ""
	}
	return goNoModule, ""
}

// modules are the main module and the other modules of its go.work.
func (e *goEnv) modules() []*goMod {
	if e.mods != nil {
		return e.mods
	}
	e.mods = []*goMod{e.main}
	if e.work != nil {
		for _, m := range e.work.modules {
			if m != e.main && m.path != e.main.path {
				e.mods = append(e.mods, m)
			}
		}
	}
	for _, m := range e.mods {
		e.known = append(e.known, m.path)
		for r := range m.requires {
			e.known = append(e.known, r)
		}
	}
	sort.Strings(e.known)
	return e.mods
}

func (e *goRun) inReplacement(path, modPath string, rep goReplace) (goVerdict, string) {
	sub, _ := within(path, modPath)
	if rep.dir != "" {
		if e.dirExists(filepath.Join(rep.dir, filepath.FromSlash(sub))) {
			return goOK, ""
		}
		return goMissingPackage, modPath
	}
	target := rep.path
	if sub != "" {
		target += "/" + sub
	}
	return e.inModCache(target, rep.path, rep.version), modPath
}

// inModCache checks the package directory in the module cache when the
// module version is there; a module not downloaded yet gets the benefit of
// the doubt (go build will download it).
func (e *goRun) inModCache(path, modPath, version string) goVerdict {
	cache := e.c.goW.modCache
	if cache == "" || version == "" {
		return goOK
	}
	sub, _ := within(path, modPath)
	key := modPath + "@" + version + "/" + sub
	if v, ok := e.c.goW.inCache.Load(key); ok {
		if v.(bool) {
			return goOK
		}
		return goMissingPackage
	}
	ep, err1 := module.EscapePath(modPath)
	ev, err2 := module.EscapeVersion(version)
	if err1 != nil || err2 != nil {
		return goOK
	}
	modDir := filepath.Join(cache, filepath.FromSlash(ep)+"@"+ev)
	if !e.dirExists(modDir) {
		return goOK
	}
	ok := dirExists(filepath.Join(modDir, filepath.FromSlash(sub)))
	e.c.goW.inCache.Store(key, ok)
	if ok {
		return goOK
	}
	return goMissingPackage
}

// within reports whether path is mod or below it, and the rest of the path.
func within(path, mod string) (string, bool) {
	if mod == "" {
		return "", false
	}
	if path == mod {
		return "", true
	}
	if strings.HasPrefix(path, mod) && path[len(mod)] == '/' {
		return path[len(mod)+1:], true
	}
	return "", false
}

func dirExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
