package testsel

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
)

// affected maps changed files to graph nodes, walks the reverse import
// graphs and selects the test units that reach a change. Changes it cannot
// map run their project's whole suite.
func (s *Selector) affected(ctx context.Context, w *workspace, units map[projKey][]unit, changed []string, sel *Selection) (map[projKey]*Plan, error) {
	m := &changeMap{w: w, starts: map[string][]string{}, fallbacks: map[projKey]string{}, goDirs: goPackageDirs(w),
		need: map[Lang]bool{}, changed: map[Lang][]string{}}
	for k := range units {
		m.projects = append(m.projects, k)
	}
	for _, c := range changed {
		m.classify(c, s.opts.Inert)
	}
	sel.Ignored = m.ignored

	g := newDepGraph()
	dynamic := map[string]int{} // node -> line of its non-literal import
	if m.need[LangGo] {
		pkgs, err := s.goDirs.goPackages(ctx, w, goBuildContext(s.opts.GOOS, s.opts.GOARCH))
		if err != nil {
			return nil, err
		}
		addGoEdges(g, pkgs)
	}
	if m.need[LangPython] {
		files := w.sourceFiles(LangPython)
		imports := s.imports.importsOf(ctx, w, files, func(_ string, src []byte) (fileImports, error) {
			return parsePythonImports(src)
		})
		addPythonEdges(g, w, imports, unitFiles(units, LangPython))
		r := newPyResolver(w)
		addDynamicEdges(g, imports, m.changedOf(LangPython), pyNode, dynamic, r.mayLoad)
	}
	if m.need[LangJS] {
		files := w.sourceFiles(LangJS)
		imports := s.imports.importsOf(ctx, w, files, func(rel string, src []byte) (fileImports, error) {
			return parseJSImports(jsExts[path.Ext(rel)], src)
		})
		addJSEdges(g, w, imports)
		addDynamicEdges(g, imports, m.changedOf(LangJS), jsNode, dynamic, jsMayLoad)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	startNodes := make([]string, 0, len(m.starts))
	for n := range m.starts {
		startNodes = append(startNodes, n)
	}
	sort.Strings(startNodes)
	reached := g.reach(startNodes)

	plans := map[projKey]*Plan{}
	var reasons []string
	for k, us := range units {
		reason := m.fallbacks[k]
		if reason == "" {
			reason = m.fallbackAll
		}
		if reason != "" {
			plans[k] = &Plan{All: true, Fallback: reason}
			if !contains(reasons, reason) {
				reasons = append(reasons, reason)
			}
			continue
		}
		for _, u := range us {
			node := unitNode(k.lang, u)
			if _, ok := reached[node]; !ok {
				continue
			}
			why, chain := explain(reached, node, m.starts, dynamic)
			addUnit(plans, k, u, Item{Lang: k.lang, Unit: u.name, Reason: why, Chain: chain})
		}
	}
	sort.Strings(reasons)
	sel.Fallback = strings.Join(reasons, "; ")
	return plans, nil
}

func unitNode(l Lang, u unit) string {
	switch l {
	case LangGo:
		return goTestNode(u.name)
	case LangPython:
		return pyNode(u.rel)
	}
	return jsNode(u.rel)
}

func unitFiles(units map[projKey][]unit, l Lang) []string {
	var out []string
	for k, us := range units {
		if k.lang == l {
			for _, u := range us {
				out = append(out, u.rel)
			}
		}
	}
	return out
}

// addDynamicEdges makes each file with a non-literal import depend on the
// changed files of its language that import may load.
func addDynamicEdges(g *depGraph, imports map[string]fileImports, changed []string, node func(string) string, dynamic map[string]int,
	mayLoad func(importer string, d dynImport, target string) bool) {
	for file, fi := range imports {
		for _, d := range fi.dynamic {
			for _, c := range changed {
				if c != file && mayLoad(file, d, c) {
					g.add(node(file), node(c), viaDynamic)
					if _, ok := dynamic[node(file)]; !ok {
						dynamic[node(file)] = d.line
					}
				}
			}
		}
	}
}

// jsMayLoad: a template like `./plugins/${name}.js` loads only below
// ./plugins/; anything else may load any file.
func jsMayLoad(importer string, d dynImport, target string) bool {
	p := d.prefix
	if !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") {
		return true
	}
	base := path.Join(path.Dir(importer), p)
	if strings.HasSuffix(p, "/") {
		base += "/"
	}
	return strings.HasPrefix(target, base)
}

// sourceFiles lists the workspace's source files of a language, fixtures
// excluded.
func (w *workspace) sourceFiles(l Lang) []string {
	var out []string
	for _, f := range w.files {
		if fl, ok := LangOf(f); ok && fl == l && !isFixturePath(f) {
			out = append(out, f)
		}
	}
	return out
}

// goPackageDirs are the directories that can hold a package of one of the
// workspace's modules.
func goPackageDirs(w *workspace) map[string]goModule {
	out := map[string]goModule{}
	for _, f := range w.files {
		if !strings.HasSuffix(f, ".go") {
			continue
		}
		dir := path.Dir(f)
		if m, ok := w.goModuleOf(dir); ok && !goSkippedDir(relTo(dir, m.Dir)) {
			out[dir] = m
		}
	}
	return out
}

// changeMap classifies changed files: graph nodes to start from, whole
// suites to fall back to, and files no test reads.
type changeMap struct {
	w           *workspace
	goDirs      map[string]goModule
	starts      map[string][]string // node -> the changed files it stands for
	need        map[Lang]bool
	projects    []projKey
	fallbacks   map[projKey]string
	fallbackAll string
	ignored     []string
	changed     map[Lang][]string
}

func (m *changeMap) start(l Lang, node, file string) {
	m.starts[node] = append(m.starts[node], file)
	m.need[l] = true
	m.changed[l] = append(m.changed[l], file)
}

func (m *changeMap) changedOf(l Lang) []string { return m.changed[l] }

func (m *changeMap) classify(c string, inert []string) {
	if l, ok := configLang(c); ok {
		m.configChanged(l, c)
		return
	}
	// A package's testdata is read by its tests, whatever the file type.
	if m.goTestdata(c) {
		return
	}
	if matchesAny(inert, c) {
		m.ignored = append(m.ignored, c)
		return
	}
	lang, isSource := LangOf(c)
	switch {
	case isSource && isFixturePath(c):
	case lang == LangGo:
		dir := path.Dir(c)
		if mod, ok := m.w.goModuleOf(dir); ok && !goSkippedDir(relTo(dir, mod.Dir)) {
			ip := goImportPath(mod, dir)
			if strings.HasSuffix(c, "_test.go") {
				m.start(LangGo, goTestNode(ip), c)
			} else {
				m.start(LangGo, goLibNode(ip), c)
			}
			return
		}
	case lang == LangPython:
		if path.Base(c) == "conftest.py" && path.Dir(c) == projectOf(m.w.pyProjects, c) {
			m.fallbacks[projKey{LangPython, path.Dir(c)}] = c + " changed: a conftest.py at the project root applies to every test"
			return
		}
		m.start(LangPython, pyNode(c), c)
		return
	case lang == LangJS:
		m.start(LangJS, jsNode(c), c)
		return
	default:
		// Assembly, cgo sources and embedded files belong to their package.
		if mod, ok := m.goDirs[path.Dir(c)]; ok {
			m.start(LangGo, goLibNode(goImportPath(mod, path.Dir(c))), c)
			return
		}
	}
	m.unknown(c)
}

// goTestdata maps a file inside a Go package's testdata directory to that
// package's tests, which are the only code that reads it.
func (m *changeMap) goTestdata(c string) bool {
	var pkgDir string
	switch {
	case strings.HasPrefix(c, "testdata/"):
		pkgDir = "."
	case strings.Contains(c, "/testdata/"):
		pkgDir = c[:strings.Index(c, "/testdata/")]
	default:
		return false
	}
	mod, ok := m.goDirs[pkgDir]
	if !ok {
		return false
	}
	m.start(LangGo, goTestNode(goImportPath(mod, pkgDir)), c)
	return true
}

func (m *changeMap) configChanged(l Lang, c string) {
	reason := c + " changed"
	switch l {
	case LangGo:
		if mod, ok := m.w.goModuleOf(path.Dir(c)); ok && path.Base(c) != "go.work" && path.Base(c) != "go.work.sum" {
			m.fallbacks[projKey{LangGo, mod.Dir}] = reason
			return
		}
		for _, mod := range m.w.goModules {
			m.fallbacks[projKey{LangGo, mod.Dir}] = reason
		}
	case LangPython:
		m.fallbacks[projKey{LangPython, projectOf(m.w.pyProjects, c)}] = reason
	case LangJS:
		m.fallbacks[projKey{LangJS, projectOf(m.w.jsProjects, c)}] = reason
	}
}

// unknown falls back to the whole suites of the innermost projects that
// contain c, or of every project when none does.
func (m *changeMap) unknown(c string) {
	reason := fmt.Sprintf("%s changed and no import graph reaches it", c)
	var keys []projKey
	best := -2
	consider := func(k projKey) {
		if !within(c, k.dir) {
			return
		}
		switch d := depth(k.dir); {
		case d > best:
			best, keys = d, []projKey{k}
		case d == best:
			keys = append(keys, k)
		}
	}
	for _, k := range m.projects {
		consider(k)
	}
	if len(keys) == 0 {
		// No project contains it: it could matter to any of them.
		if m.fallbackAll == "" {
			m.fallbackAll = reason
		}
		return
	}
	for _, k := range keys {
		if m.fallbacks[k] == "" {
			m.fallbacks[k] = reason
		}
	}
}
