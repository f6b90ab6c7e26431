package testsel

import (
	"path"
	"strings"

	"github.com/BurntSushi/toml"
)

// pyResolver maps Python imports to workspace files the way sys.path would
// in the sandbox: the test file's rootdir-inserted base directory (pytest's
// default "prepend" import mode), the project directory, its src/ layout and
// `pythonpath` ini entries, and the workspace root.
type pyResolver struct {
	w     *workspace
	dirs  map[string]bool     // directories that hold files
	paths map[string][]string // project dir -> extra source roots from its config
}

func newPyResolver(w *workspace) *pyResolver {
	r := &pyResolver{w: w, dirs: map[string]bool{".": true}, paths: map[string][]string{}}
	for f := range w.exists {
		for d := path.Dir(f); d != "." && !r.dirs[d]; d = path.Dir(d) {
			r.dirs[d] = true
		}
	}
	for _, p := range w.pyProjects {
		r.paths[p] = pytestPythonpath(w, p)
	}
	return r
}

// pytestPythonpath reads [tool.pytest.ini_options] pythonpath from a
// project's pyproject.toml.
func pytestPythonpath(w *workspace, project string) []string {
	data, err := w.read(path.Join(project, "pyproject.toml"))
	if err != nil {
		return nil
	}
	var cfg struct {
		Tool struct {
			Pytest struct {
				IniOptions struct {
					Pythonpath any `toml:"pythonpath"`
				} `toml:"ini_options"`
			} `toml:"pytest"`
		} `toml:"tool"`
	}
	if _, err := toml.Decode(string(data), &cfg); err != nil {
		return nil
	}
	var out []string
	switch v := cfg.Tool.Pytest.IniOptions.Pythonpath.(type) {
	case string:
		out = strings.Fields(v)
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	}
	for i, p := range out {
		out[i] = path.Join(project, p)
	}
	return out
}

func (r *pyResolver) roots(from string) []string {
	project := projectOf(r.w.pyProjects, from)
	// pytest inserts the first directory above the test file that is not a
	// package.
	base := path.Dir(from)
	for base != "." && r.w.exists[path.Join(base, "__init__.py")] {
		base = path.Dir(base)
	}
	roots := []string{base, project}
	roots = append(roots, r.paths[project]...)
	roots = append(roots, path.Join(project, "src"), ".")
	return roots
}

// resolve returns the workspace files an import loads: the module, the
// __init__.py of each enclosing package, and from-imported submodules.
func (r *pyResolver) resolve(from string, imp pyImport) []string {
	var out []string
	if imp.level > 0 {
		base := path.Dir(from)
		for i := 1; i < imp.level; i++ {
			base = path.Dir(base)
		}
		dir := base
		if imp.module != "" {
			dir = path.Join(base, strings.ReplaceAll(imp.module, ".", "/"))
		}
		out = r.appendModule(out, dir)
		if init := path.Join(base, "__init__.py"); r.w.exists[init] {
			out = append(out, init)
		}
		return r.appendNames(out, dir, imp.names)
	}
	parts := strings.Split(imp.module, ".")
	for _, root := range r.roots(from) {
		if !r.dirs[root] && root != "." {
			continue
		}
		// The first root that has the top-level package or module wins.
		top := path.Join(root, parts[0])
		if !r.dirs[top] && !r.w.exists[top+".py"] {
			continue
		}
		dir := root
		for _, p := range parts {
			dir = path.Join(dir, p)
			out = r.appendModule(out, dir)
		}
		return r.appendNames(out, dir, imp.names)
	}
	return out
}

// appendModule adds the file that defines module dir (dir.py or
// dir/__init__.py) if the workspace has it.
func (r *pyResolver) appendModule(out []string, dir string) []string {
	if f := dir + ".py"; r.w.exists[f] {
		return append(out, f)
	}
	if f := path.Join(dir, "__init__.py"); r.w.exists[f] {
		return append(out, f)
	}
	return out
}

func (r *pyResolver) appendNames(out []string, dir string, names []string) []string {
	for _, n := range names {
		out = r.appendModule(out, path.Join(dir, n))
	}
	return out
}

// addPythonEdges adds the import edges of Python files, and the edges from
// each test file to the conftest.py files that apply to it.
func addPythonEdges(g *depGraph, w *workspace, imports map[string]fileImports, tests []string) {
	r := newPyResolver(w)
	for file, fi := range imports {
		for _, imp := range fi.py {
			for _, target := range r.resolve(file, imp) {
				if target != file {
					g.add(pyNode(file), pyNode(target), viaImport)
				}
			}
		}
	}
	for _, t := range tests {
		project := projectOf(w.pyProjects, t)
		for dir := path.Dir(t); ; dir = path.Dir(dir) {
			if c := path.Join(dir, "conftest.py"); w.exists[c] {
				g.add(pyNode(t), pyNode(c), viaConftest)
			}
			if dir == project || dir == "." {
				break
			}
		}
	}
}

func pyNode(rel string) string { return "py:" + rel }

// mayLoad: import_module(f"pkg.handlers.{name}") loads only modules whose
// dotted name starts with "pkg.handlers."; a target is judged by its name
// under each source root the importer sees.
func (r *pyResolver) mayLoad(importer string, d dynImport, target string) bool {
	if d.prefix == "" || strings.HasPrefix(d.prefix, ".") {
		return true
	}
	for _, root := range r.roots(importer) {
		if !within(target, root) {
			continue
		}
		mod := strings.TrimSuffix(relTo(target, root), ".py")
		mod = strings.TrimSuffix(mod, "/__init__")
		if strings.HasPrefix(strings.ReplaceAll(mod, "/", "."), d.prefix) {
			return true
		}
	}
	return false
}
