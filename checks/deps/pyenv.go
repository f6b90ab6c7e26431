package deps

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/aisbx/aisbx/checks"
)

// pyCaches holds parsed Python manifests, lockfiles and .pth files.
type pyCaches struct {
	reqs     fileCache[requirementsFile]
	pyproj   fileCache[pyprojectFile]
	pipfiles fileCache[[]depEntry]
	locks    fileCache[[]string]
	pths     fileCache[pthFile]
}

// pyEnv is everything one Python file's imports resolve against.
type pyEnv struct {
	declared  map[string]bool // normalised distribution names
	installed map[string]bool // top-level importable names in site-packages
	local     []*dirListing   // directories whose modules are the project's own
	basis     bool            // a manifest or a virtualenv was found
	errs      []error
	// bases are the declared names without the affixes distributions add
	// to their import name: python-dateutil -> dateutil, PyYAML -> yaml.
	bases map[string]bool

	knownOnce sync.Once
	known     *nearSet // installed and declared names, for near-miss hints
}

// distAffixes are what distributions put around the import name.
var (
	distPrefixes = []string{"python-", "py-", "py"}
	distSuffixes = []string{"-python", "-py", "-binary", "3"}
)

func (e *pyEnv) addBases() {
	e.bases = map[string]bool{}
	for d := range e.declared {
		for _, p := range distPrefixes {
			if b, ok := strings.CutPrefix(d, p); ok && b != "" {
				e.bases[b] = true
			}
		}
		for _, s := range distSuffixes {
			if b, ok := strings.CutSuffix(d, s); ok && b != "" {
				e.bases[b] = true
			}
		}
	}
}

// knownNames lists installed modules and declared distributions (as import
// names) for near-miss hints, built once per snapshot.
func (e *pyEnv) knownNames() *nearSet {
	e.knownOnce.Do(func() {
		var names []string
		for m := range e.installed {
			names = append(names, m)
		}
		for d := range e.declared {
			names = append(names, strings.ReplaceAll(d, "-", "_"))
		}
		sort.Strings(names)
		e.known = newNearSet(names)
	})
	return e.known
}

// pyEnvFor collects the Python environment of a file in dir: manifests,
// lockfiles and virtualenvs in dir and its parents up to root, and the
// directories that hold the project's own modules (each of those, and their
// src/ folders).
func (c *Check) pyEnvFor(dir, root string) *pyEnv {
	env := &pyEnv{declared: map[string]bool{}, installed: map[string]bool{}}
	for _, d := range c.ancestors(dir, root) {
		l := c.dirs.list(d)
		if l == nil {
			continue
		}
		env.local = append(env.local, l)
		if l.isDir("src") {
			if s := c.dirs.list(filepath.Join(d, "src")); s != nil {
				env.local = append(env.local, s)
			}
		}
		names := make([]string, 0, 8)
		for name := range l.entries {
			names = append(names, name)
		}
		sort.Strings(names) // stable error order
		for _, name := range names {
			c.pyManifest(env, d, name, l.entries[name])
		}
	}
	env.addBases()
	return env
}

// pyManifest adds what one directory entry declares or installs.
func (c *Check) pyManifest(env *pyEnv, dir, name string, isDir bool) {
	p := filepath.Join(dir, name)
	switch {
	case !isDir && isRequirementsName(name):
		c.addRequirements(env, p, 0)
	case isDir && name == "requirements":
		if l := c.dirs.list(p); l != nil {
			for n, sub := range l.entries {
				if !sub && (strings.HasSuffix(n, ".txt") || strings.HasSuffix(n, ".in")) {
					c.addRequirements(env, filepath.Join(p, n), 0)
				}
			}
		}
	case name == "pyproject.toml":
		pp, ok, err := c.pyW.pyproj.get(p, func(_ string, b []byte) (pyprojectFile, error) { return parsePyproject(b) })
		if pp.name != "" {
			pp.deps = append(pp.deps[:len(pp.deps):len(pp.deps)], depEntry{name: pp.name})
		}
		c.addEntries(env, p, pp.deps, ok, err)
	case name == "Pipfile":
		ents, ok, err := c.pyW.pipfiles.get(p, func(_ string, b []byte) ([]depEntry, error) { return parsePipfile(b) })
		c.addEntries(env, p, ents, ok, err)
	case name == "poetry.lock" || name == "uv.lock" || name == "pdm.lock":
		names, ok, err := c.pyW.locks.get(p, func(_ string, b []byte) ([]string, error) { return parseTOMLLock(b) })
		c.addNames(env, p, names, ok, err)
	case name == "Pipfile.lock":
		names, ok, err := c.pyW.locks.get(p, func(_ string, b []byte) ([]string, error) { return parsePipfileLock(b) })
		c.addNames(env, p, names, ok, err)
	case name == "setup.cfg" || name == "setup.py":
		names, ok, err := c.pyW.locks.get(p, func(_ string, b []byte) ([]string, error) { return parseSetup(name, b), nil })
		c.addNames(env, p, names, ok, err)
	case isDir && (name == ".venv" || name == "venv" || name == "env" || name == ".env"):
		c.addVenv(env, p)
	}
}

func isRequirementsName(name string) bool {
	return strings.HasPrefix(name, "requirements") && (strings.HasSuffix(name, ".txt") || strings.HasSuffix(name, ".in"))
}

func (c *Check) addEntries(env *pyEnv, p string, ents []depEntry, ok bool, err error) {
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.name
	}
	c.addNames(env, p, names, ok, err)
}

// addNames records the distributions a file at p declares: ok says the file
// exists, err that it could not be parsed.
func (c *Check) addNames(env *pyEnv, p string, names []string, ok bool, err error) {
	if !ok {
		return
	}
	env.basis = true
	if err != nil {
		env.errs = append(env.errs, fmt.Errorf("%s: %w", p, err))
		return
	}
	for _, n := range names {
		env.declared[pep503(n)] = true
	}
}

// addRequirements adds a requirements file and the files it includes with
// -r (constraints files, -c, declare nothing).
func (c *Check) addRequirements(env *pyEnv, p string, depth int) {
	rf, ok, err := c.pyW.reqs.get(p, func(_ string, b []byte) (requirementsFile, error) { return parseRequirements(b), nil })
	c.addEntries(env, p, rf.entries, ok, err)
	if !ok || err != nil {
		return
	}
	if depth > 8 {
		return
	}
	for _, inc := range rf.includes {
		if !filepath.IsAbs(inc) {
			inc = filepath.Join(filepath.Dir(p), inc)
		}
		c.addRequirements(env, inc, depth+1)
	}
}

// addVenv adds the top-level modules installed in a virtualenv.
func (c *Check) addVenv(env *pyEnv, venv string) {
	if !c.dirs.list(venv).has("pyvenv.cfg") {
		return
	}
	env.basis = true
	var sites []string
	for _, lib := range []string{"lib", "lib64"} {
		if l := c.dirs.list(filepath.Join(venv, lib)); l != nil {
			for n, isDir := range l.entries {
				if isDir && strings.HasPrefix(n, "python") {
					sites = append(sites, filepath.Join(venv, lib, n, "site-packages"))
				}
			}
		}
	}
	sites = append(sites, filepath.Join(venv, "Lib", "site-packages"))
	for _, s := range sites {
		l := c.dirs.list(s)
		if l == nil {
			continue
		}
		for m := range l.pyModules {
			env.installed[m] = true
		}
		for n := range l.entries {
			if strings.HasSuffix(n, ".pth") {
				pth, ok, _ := c.pyW.pths.get(filepath.Join(s, n), parsePth)
				if !ok {
					continue
				}
				for _, m := range pth.modules {
					env.installed[m] = true
				}
				for _, d := range pth.dirs {
					if !filepath.IsAbs(d) {
						d = filepath.Join(s, d)
					}
					for m := range c.dirs.list(d).pyModulesOrNil() {
						env.installed[m] = true
					}
				}
			}
		}
	}
}

func (l *dirListing) pyModulesOrNil() map[string]bool {
	if l == nil {
		return nil
	}
	return l.pyModules
}

// pthFile is what a .pth file adds to sys.path: directories, and for
// setuptools' editable installs the modules its finder maps.
type pthFile struct {
	dirs    []string
	modules []string
}

var editableFinder = regexp.MustCompile(`^import (__editable___[A-Za-z0-9_]+_finder)`)

func parsePth(p string, data []byte) (pthFile, error) {
	var pf pthFile
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		if m := editableFinder.FindStringSubmatch(line); m != nil {
			pf.modules = append(pf.modules, finderModules(filepath.Join(filepath.Dir(p), m[1]+".py"))...)
			continue
		}
		if strings.HasPrefix(line, "import ") || strings.HasPrefix(line, "import\t") {
			continue
		}
		pf.dirs = append(pf.dirs, line)
	}
	return pf, sc.Err()
}

var finderMapping = regexp.MustCompile(`(?s)MAPPING\s*(?::[^=]*)?=\s*\{(.*?)\}`)
var finderKey = regexp.MustCompile(`['"]([A-Za-z_][A-Za-z0-9_]*)['"]\s*:`)

// finderModules reads the MAPPING dict of a setuptools editable finder.
func finderModules(path string) []string {
	data, err := readSmall(path, 1<<20)
	if err != nil {
		return nil
	}
	m := finderMapping.FindSubmatch(data)
	if m == nil {
		return nil
	}
	var out []string
	for _, k := range finderKey.FindAllSubmatch(m[1], -1) {
		out = append(out, string(k[1]))
	}
	return out
}

// resolve decides whether a Python module is provided.
func (e *pyEnv) resolve(module string) bool {
	top := module
	if i := strings.IndexByte(top, '.'); i >= 0 {
		top = top[:i]
	}
	if pythonStdlib()[top] || e.installed[top] {
		return true
	}
	for _, l := range e.local {
		if l.pyModules[top] {
			return true
		}
	}
	m := pythonImportMap()
	for p := module; p != ""; {
		for _, d := range m[p] {
			if e.declared[d] {
				return true
			}
		}
		if n := pep503(p); e.declared[n] || e.bases[n] {
			return true
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			return false
		}
		p = p[:i]
	}
	return false
}

// resolveImport resolves `import x` or `from x import a, b`: the latter also
// when x itself is a namespace that only x.a and x.b's distributions provide.
func (e *pyEnv) resolveImport(imp importRef) bool {
	if e.resolve(imp.path) {
		return true
	}
	for _, n := range imp.names {
		if !e.resolve(imp.path + "." + n) {
			return false
		}
	}
	return len(imp.names) > 0
}

func (c *Check) runPython(ctx context.Context, f *checks.File) ([]checks.Finding, error) {
	imps := pyImports(f.Content)
	if len(imps) == 0 {
		return nil, nil
	}
	env := c.pyEnvMemo(filepath.Dir(f.Path), f.Root)
	var out []checks.Finding
	var online []pending
	for _, imp := range imps {
		if imp.optional || c.allow.python(imp.path, "") || env.resolveImport(imp) {
			continue
		}
		var fd checks.Finding
		if env.basis {
			fd = c.pyUnresolved(env, imp)
		} else if fd = c.pyLooseTypo(imp); fd.Rule == "" {
			continue
		}
		out = append(out, fd)
		online = append(online, pending{idx: len(out) - 1, eco: ecoPyPI, name: pyDistGuess(imp.path)})
	}
	errs := env.errs
	if err := c.verifyImports(ctx, out, online); err != nil {
		errs = append(errs, err)
	}
	return out, joinErrs(errs)
}

// pyDistGuess is the distribution an unresolved import most likely means.
func pyDistGuess(module string) string {
	top := module
	if i := strings.IndexByte(top, '.'); i >= 0 {
		top = top[:i]
	}
	if ds := pythonImportMap()[top]; len(ds) > 0 {
		return ds[0]
	}
	return pep503(top)
}

// pyTop is an import's top-level module and its range in the file.
func pyTop(imp importRef) (top string, start, end int) {
	top = imp.path
	if i := strings.IndexByte(top, '.'); i >= 0 {
		top = top[:i]
	}
	start, end = imp.start, imp.start+len(top)
	return top, start, min(end, imp.end)
}

// pyLooseTypo judges an import of a loose script: no manifest or virtualenv
// says what is installed, so an unknown name alone proves nothing (it may
// be installed globally). A name one typo away from a popular distribution,
// and not a known import itself, is still worth a word. It returns the zero
// Finding otherwise.
func (c *Check) pyLooseTypo(imp importRef) checks.Finding {
	top, start, end := pyTop(imp)
	if knownPyDist(imp) != "" {
		return checks.Finding{}
	}
	t := c.popularLookalike(ecoPyPI, top)
	if t == "" || versionSibling(top, t) {
		return checks.Finding{}
	}
	msg := fmt.Sprintf("module %q is one typo away from the popular PyPI package %q, and no manifest or virtualenv here declares it: check the name before you install anything", top, t)
	return pyTypoFinding(msg, t, start, end)
}

// pyTypoFinding is a py-unresolved-import finding on a look-alike of the
// popular distribution t, with a fix to t's name when that is an import name.
func pyTypoFinding(msg, t string, start, end int) checks.Finding {
	if name := strings.ReplaceAll(t, "-", "_"); isPyIdent(name) {
		return finding(RulePyUnresolved, start, end, msg, replaceFix("Replace with "+name, start, end, name))
	}
	return finding(RulePyUnresolved, start, end, msg)
}

func (c *Check) pyUnresolved(env *pyEnv, imp importRef) checks.Finding {
	top, start, end := pyTop(imp)
	// A near miss of something declared or installed is most likely a typo.
	if s := c.closest(top, env.knownNames()); s != "" {
		msg := fmt.Sprintf("module %q is neither installed nor declared; did you mean %q?", top, s)
		return finding(RulePyUnresolved, start, end, msg, replaceFix("Replace with "+s, start, end, s))
	}
	if dist := knownPyDist(imp); dist != "" {
		msg := fmt.Sprintf("module %q comes from the distribution %q, which this project does not declare: add it to requirements or pyproject.toml", top, dist)
		return finding(RulePyUnresolved, start, end, msg)
	}
	if t := c.popularLookalike(ecoPyPI, top); t != "" {
		msg := fmt.Sprintf("module %q is not declared, and it is one typo away from the popular PyPI package %q: check the name before you install anything", top, t)
		return pyTypoFinding(msg, t, start, end)
	}
	msg := fmt.Sprintf("module %q is not in the standard library, this project, its virtualenv or any declared dependency: check that the package really exists, then declare it", top)
	return finding(RulePyUnresolved, start, end, msg)
}

// knownPyDist is the distribution a well-known import comes from, or "":
// the most specific dotted prefix (with a from-import's first name) that
// the import-name table or the popular list knows.
func knownPyDist(imp importRef) string {
	path := imp.path
	if len(imp.names) > 0 {
		path += "." + imp.names[0]
	}
	m := pythonImportMap()
	pop := popularity(ecoPyPI)
	for p := path; p != ""; {
		if ds := m[p]; len(ds) > 0 {
			return ds[0]
		}
		if n := pep503(p); pop.rank(n) > 0 {
			return n
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return ""
}
