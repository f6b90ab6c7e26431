package deps

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/aisbx/aisbx/checks"
)

// jsCaches holds parsed package.json files, lockfiles, tsconfigs and
// workspace expansions.
type jsCaches struct {
	pkgs      fileCache[*packageJSON]
	locks     fileCache[map[string]bool]
	tsconfigs fileCache[*tsconfig]
	pnpmWS    fileCache[[]string]
	builtins  sync.Once
	builtin   map[string]bool
	wsMu      sync.Mutex
	ws        map[string]wsEntry
}

// jsEnv is everything one JS/TS file's imports resolve against.
type jsEnv struct {
	c            *Check
	declared     map[string]bool
	locked       map[string]bool
	nodeModules  []string // node_modules directories, nearest first
	aliases      []tsAlias
	baseURL      string
	basis        bool
	errs         []error
	declaredList []string
	near         *nearSet
}

// jsRun resolves the imports of one file against a shared jsEnv, reading
// each directory listing at most once.
type jsRun struct {
	*jsEnv
	lists map[string]*dirListing
}

// list is dirs.list memoised for the run: one stat per directory per run.
func (e *jsRun) list(dir string) *dirListing {
	if l, ok := e.lists[dir]; ok {
		return l
	}
	if e.lists == nil {
		e.lists = map[string]*dirListing{}
	}
	l := e.c.dirs.list(dir)
	e.lists[dir] = l
	return l
}

func (c *Check) jsBuiltins() map[string]bool {
	c.jsW.builtins.Do(func() { c.jsW.builtin = dataSet("node-builtins.txt") })
	return c.jsW.builtin
}

// jsEnvFor collects package.json files, workspaces, lockfiles,
// node_modules and the nearest tsconfig/jsconfig from dir up to root.
func (c *Check) jsEnvFor(dir, root string) *jsEnv {
	env := &jsEnv{c: c, declared: map[string]bool{}, locked: map[string]bool{}}
	tsFound := false
	for _, d := range c.ancestors(dir, root) {
		l := c.dirs.list(d)
		if l == nil {
			continue
		}
		if l.has("package.json") {
			p := filepath.Join(d, "package.json")
			pj, ok, err := c.jsW.pkgs.get(p, func(_ string, b []byte) (*packageJSON, error) { return parsePackageJSON(b) })
			if ok {
				env.basis = true
				if err != nil {
					env.errs = append(env.errs, fmt.Errorf("%s: %w", p, err))
				} else {
					env.addPackage(pj)
					for _, n := range c.workspaceNames(d, pj.workspaces) {
						env.declared[n] = true
					}
				}
			}
		}
		if l.has("pnpm-workspace.yaml") {
			pats, _, _ := c.jsW.pnpmWS.get(filepath.Join(d, "pnpm-workspace.yaml"), func(_ string, b []byte) ([]string, error) { return pnpmWorkspaces(b), nil })
			for _, n := range c.workspaceNames(d, pats) {
				env.declared[n] = true
			}
		}
		for _, lf := range []string{"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock"} {
			if !l.has(lf) {
				continue
			}
			names, ok, err := c.jsW.locks.get(filepath.Join(d, lf), func(_ string, b []byte) (map[string]bool, error) { return lockNames(lf, b) })
			if ok && err == nil {
				for n := range names {
					env.locked[n] = true
				}
			} else if err != nil {
				env.errs = append(env.errs, err)
			}
		}
		if l.isDir("node_modules") {
			env.nodeModules = append(env.nodeModules, filepath.Join(d, "node_modules"))
		}
		if !tsFound {
			for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
				if l.has(name) {
					tsFound = true
					if ts := c.loadTSConfig(filepath.Join(d, name), 0); ts != nil {
						env.aliases, env.baseURL = ts.aliases, ts.baseURL
					}
					break
				}
			}
		}
	}
	sort.Strings(env.declaredList)
	env.near = newNearSet(env.declaredList)
	return env
}

func (e *jsEnv) addPackage(pj *packageJSON) {
	if pj.name != "" {
		e.declared[pj.name] = true
	}
	for _, d := range pj.entries {
		e.declared[d.name] = true
		e.declaredList = append(e.declaredList, d.name)
	}
}

// jsPackageName returns the npm package a bare specifier names, or false
// for relative, absolute, URL, scheme-prefixed (node:, bun:) and alias-like
// specifiers that cannot be npm packages (#internal, ~/x, @/x, $lib).
func jsPackageName(spec string) (string, bool) {
	if spec == "" || strings.ContainsAny(spec, "!\\") {
		return "", false
	}
	switch spec[0] {
	case '.', '/', '#', '~', '$', '%':
		return "", false
	}
	if i := strings.IndexByte(spec, ':'); i >= 0 && (strings.IndexByte(spec, '/') < 0 || i < strings.IndexByte(spec, '/')) {
		return "", false
	}
	if i := strings.IndexAny(spec, "?"); i >= 0 {
		spec = spec[:i]
	}
	name := spec
	if spec[0] == '@' {
		slash := strings.IndexByte(spec, '/')
		if slash <= 1 || slash == len(spec)-1 {
			return "", false
		}
		if next := strings.IndexByte(spec[slash+1:], '/'); next >= 0 {
			name = spec[:slash+1+next]
		}
		if !validNPMPart(name[1:slash]) || !validNPMPart(name[slash+1:]) {
			return "", false
		}
		return name, true
	}
	if i := strings.IndexByte(spec, '/'); i >= 0 {
		name = spec[:i]
	}
	if name[0] == '_' || !validNPMPart(name) {
		return "", false
	}
	return name, true
}

func validNPMPart(s string) bool {
	if s == "" || s[0] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '-' || c == '.' || c == '_' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')) {
			return false
		}
	}
	return true
}

// resolve decides whether a package is provided: built-in, declared (or its
// @types package is), a workspace package, locked, or in node_modules.
func (e *jsRun) resolve(spec, name string) bool {
	if e.c.jsBuiltins()[name] || e.declared[name] || e.declared[typesPackage(name)] || e.locked[name] {
		return true
	}
	for _, a := range e.aliases {
		if a.match(spec) {
			return true
		}
	}
	if e.baseURL != "" {
		first := spec
		if i := strings.IndexByte(first, '/'); i >= 0 {
			first = first[:i]
		}
		l := e.list(e.baseURL)
		for _, ext := range []string{"", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".d.ts", ".json"} {
			if l.has(first + ext) {
				return true
			}
		}
	}
	for _, nm := range e.nodeModules {
		if strings.HasPrefix(name, "@") {
			scope, pkg, _ := strings.Cut(name, "/")
			if e.list(filepath.Join(nm, scope)).has(pkg) {
				return true
			}
		} else if e.list(nm).has(name) {
			return true
		}
	}
	return false
}

// typesPackage is the DefinitelyTyped package for name: @types/x, or
// @types/scope__x for @scope/x.
func typesPackage(name string) string {
	if strings.HasPrefix(name, "@") {
		return "@types/" + strings.Replace(name[1:], "/", "__", 1)
	}
	return "@types/" + name
}

func (c *Check) runJS(ctx context.Context, f *checks.File) ([]checks.Finding, error) {
	imps := jsImports(f.Content)
	if len(imps) == 0 {
		return nil, nil
	}
	var env *jsRun
	var out []checks.Finding
	var online []pending
	for _, imp := range imps {
		name, ok := jsPackageName(imp.path)
		if !ok || imp.optional || c.jsBuiltins()[name] || c.allow.path(imp.path) || c.allow[name] {
			continue
		}
		if env == nil {
			env = &jsRun{jsEnv: c.jsEnvMemo(filepath.Dir(f.Path), f.Root)}
		}
		if env.resolve(imp.path, name) {
			continue
		}
		var fd checks.Finding
		if env.basis {
			fd = c.jsUnresolved(env, imp, name)
		} else if fd = c.jsLooseTypo(imp, name); fd.Rule == "" {
			continue
		}
		out = append(out, fd)
		online = append(online, pending{idx: len(out) - 1, eco: ecoNPM, name: name})
	}
	if env == nil {
		return nil, nil
	}
	errs := env.errs
	if err := c.verifyImports(ctx, out, online); err != nil {
		errs = append(errs, err)
	}
	return out, joinErrs(errs)
}

// jsLooseTypo judges an import of a file with no package.json above it: as
// for a loose Python script (pyLooseTypo), only a look-alike of a popular
// package is worth a word. It returns the zero Finding otherwise.
func (c *Check) jsLooseTypo(imp importRef, name string) checks.Finding {
	if popularity(ecoNPM).rank(name) > 0 {
		return checks.Finding{}
	}
	t := c.popularLookalike(ecoNPM, name)
	if t == "" || versionSibling(name, t) {
		return checks.Finding{}
	}
	start, end := imp.start, imp.start+len(name)
	msg := fmt.Sprintf("package %q is one typo away from the popular npm package %q, and no package.json here declares it: check the name before you install anything", name, t)
	return finding(RuleJSUnresolved, start, end, msg, replaceFix("Replace with "+t, start, end, t))
}

func (c *Check) jsUnresolved(env *jsRun, imp importRef, name string) checks.Finding {
	start, end := imp.start, imp.start+len(name)
	if s := c.closest(name, env.near); s != "" {
		msg := fmt.Sprintf("package %q is not declared in package.json; did you mean %q?", name, s)
		return finding(RuleJSUnresolved, start, end, msg, replaceFix("Replace with "+s, start, end, s))
	}
	if popularity(ecoNPM).rank(name) > 0 {
		msg := fmt.Sprintf("package %q is not declared in package.json: add it (npm install %s)", name, name)
		return finding(RuleJSUnresolved, start, end, msg)
	}
	if t := c.popularLookalike(ecoNPM, name); t != "" {
		msg := fmt.Sprintf("package %q is not declared, and it is one typo away from the popular npm package %q: check the name before you install anything", name, t)
		return finding(RuleJSUnresolved, start, end, msg, replaceFix("Replace with "+t, start, end, t))
	}
	msg := fmt.Sprintf("package %q is not a Node.js built-in, not in package.json, a lockfile or node_modules: check that it really exists on npm, then add it", name)
	return finding(RuleJSUnresolved, start, end, msg)
}

// tsconfig is the part of tsconfig.json/jsconfig.json resolution needs.
type tsconfig struct {
	aliases []tsAlias
	baseURL string
}

// tsAlias is one compilerOptions.paths pattern: prefix*suffix, or exact.
type tsAlias struct {
	prefix, suffix string
	wildcard       bool
}

func (a tsAlias) match(spec string) bool {
	if !a.wildcard {
		return spec == a.prefix
	}
	return len(spec) >= len(a.prefix)+len(a.suffix) && strings.HasPrefix(spec, a.prefix) && strings.HasSuffix(spec, a.suffix)
}

// loadTSConfig reads a tsconfig and what it extends (relative paths only:
// configs from packages are rarely where aliases live).
func (c *Check) loadTSConfig(path string, depth int) *tsconfig {
	type raw struct {
		Extends         json.RawMessage `json:"extends"`
		CompilerOptions struct {
			BaseURL *string             `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	ts, ok, err := c.jsW.tsconfigs.get(path, func(p string, b []byte) (*tsconfig, error) {
		var r raw
		if err := json.Unmarshal(jsoncToJSON(b), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		out := &tsconfig{}
		if depth < 5 && len(r.Extends) > 0 {
			var exts []string
			var one string
			if json.Unmarshal(r.Extends, &one) == nil {
				exts = []string{one}
			} else {
				_ = json.Unmarshal(r.Extends, &exts)
			}
			for _, e := range exts {
				if strings.HasPrefix(e, ".") {
					ep := filepath.Join(filepath.Dir(p), e)
					if !strings.HasSuffix(ep, ".json") {
						ep += ".json"
					}
					if parent := c.loadTSConfig(ep, depth+1); parent != nil {
						out.aliases, out.baseURL = parent.aliases, parent.baseURL
					}
				}
			}
		}
		if r.CompilerOptions.BaseURL != nil {
			out.baseURL = filepath.Join(filepath.Dir(p), *r.CompilerOptions.BaseURL)
		}
		if r.CompilerOptions.Paths != nil {
			out.aliases = nil
			for pat := range r.CompilerOptions.Paths {
				if pre, suf, ok := strings.Cut(pat, "*"); ok {
					out.aliases = append(out.aliases, tsAlias{prefix: pre, suffix: suf, wildcard: true})
				} else {
					out.aliases = append(out.aliases, tsAlias{prefix: pat})
				}
			}
		}
		return out, nil
	})
	if !ok || err != nil {
		return nil
	}
	return ts
}

// jsoncToJSON turns JSON with comments and trailing commas (tsconfig,
// bun.lock) into JSON.
func jsoncToJSON(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(b) {
				j = len(b) - 1
			}
			out = append(out, b[i:j+1]...)
			i = j
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			i--
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := strings.Index(string(b[i+2:]), "*/")
			if end < 0 {
				return out
			}
			i += 2 + end + 1
		case c == ',':
			j := i + 1
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
				j++
			}
			if j < len(b) && (b[j] == '}' || b[j] == ']') {
				continue
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// pnpmWorkspaces reads the packages globs of pnpm-workspace.yaml.
func pnpmWorkspaces(b []byte) []string {
	var out []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "packages:"):
			in = true
		case in && strings.HasPrefix(t, "- "):
			p := strings.Trim(strings.TrimSpace(t[2:]), `'"`)
			if !strings.HasPrefix(p, "!") {
				out = append(out, p)
			}
		case in && t != "" && !strings.HasPrefix(t, "#") && line[0] != ' ':
			in = false
		}
	}
	return out
}

// wsEntry caches the package names a set of workspace globs expands to,
// valid while the directories the globs list keep their mtimes.
type wsEntry struct {
	patterns string
	dirs     map[string]stamp
	names    []string
}

// workspaceNames expands workspace globs under dir to package names.
func (c *Check) workspaceNames(dir string, patterns []string) []string {
	if len(patterns) == 0 {
		return nil
	}
	key := strings.Join(patterns, "\x00")
	c.jsW.wsMu.Lock()
	e, ok := c.jsW.ws[dir]
	c.jsW.wsMu.Unlock()
	if ok && e.patterns == key {
		fresh := true
		for d, st := range e.dirs {
			if statStamp(d) != st {
				fresh = false
				break
			}
		}
		if fresh {
			return e.names
		}
	}
	e = wsEntry{patterns: key, dirs: map[string]stamp{}}
	for _, pat := range patterns {
		pat = strings.TrimSuffix(strings.TrimSuffix(pat, "/"), "/**")
		globs := []string{pat}
		if strings.Contains(pat, "**") {
			globs = []string{strings.ReplaceAll(pat, "**", "*"), strings.ReplaceAll(pat, "**", "*/*")}
		}
		for _, g := range globs {
			full := filepath.Join(dir, filepath.FromSlash(g))
			parent := full
			for strings.ContainsAny(parent, "*?[") {
				parent = filepath.Dir(parent)
			}
			e.dirs[parent] = statStamp(parent)
			matches, _ := filepath.Glob(filepath.Join(full, "package.json"))
			for _, m := range matches {
				if b, err := os.ReadFile(m); err == nil {
					if pj, err := parsePackageJSON(b); err == nil && pj.name != "" {
						e.names = append(e.names, pj.name)
					}
				}
			}
		}
	}
	c.jsW.wsMu.Lock()
	if c.jsW.ws == nil {
		c.jsW.ws = map[string]wsEntry{}
	}
	c.jsW.ws[dir] = e
	c.jsW.wsMu.Unlock()
	return e.names
}
