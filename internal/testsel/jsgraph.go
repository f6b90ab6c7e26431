package testsel

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
)

// jsProbeExts are tried, in order, after a relative specifier without a
// known file: TypeScript first, as tsc and bundlers do.
var jsProbeExts = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json"}

// jsTSForJS maps an emitted extension in a specifier to the TypeScript
// sources it is compiled from (`import "./a.js"` in a.ts's sibling).
var jsTSForJS = map[string][]string{
	".js": {".ts", ".tsx"}, ".jsx": {".tsx"}, ".mjs": {".mts"}, ".cjs": {".cts"},
}

// jsResolver maps module specifiers to workspace files: relative paths with
// extension and index probing, tsconfig/jsconfig `paths` and `baseUrl`, and
// the workspace's own packages by name. Other bare specifiers are external.
type jsResolver struct {
	w        *workspace
	aliases  map[string]tsPaths // project dir -> its tsconfig paths
	packages map[string]string  // package name -> dir
}

type tsPaths struct {
	baseURL string // workspace-relative; "" if unset
	paths   []tsPathRule
}

type tsPathRule struct {
	pattern string // may hold one "*"
	targets []string
}

func newJSResolver(w *workspace) *jsResolver {
	r := &jsResolver{w: w, aliases: map[string]tsPaths{}, packages: map[string]string{}}
	for _, dir := range w.jsProjects {
		if data, err := w.read(path.Join(dir, "package.json")); err == nil {
			var pkg struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(data, &pkg) == nil && pkg.Name != "" {
				r.packages[pkg.Name] = dir
			}
		}
	}
	dirs := map[string]bool{}
	for _, f := range w.files {
		if b := path.Base(f); (b == "tsconfig.json" || b == "jsconfig.json") && !isFixturePath(f) {
			dirs[path.Dir(f)] = true
		}
	}
	for dir := range dirs {
		for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
			if tp, ok := readTSPaths(w, dir, name); ok {
				r.aliases[dir] = tp
				break
			}
		}
	}
	return r
}

func readTSPaths(w *workspace, dir, name string) (tsPaths, bool) {
	data, err := w.read(path.Join(dir, name))
	if err != nil {
		return tsPaths{}, false
	}
	var cfg struct {
		CompilerOptions struct {
			BaseURL string              `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal(jsonc(data), &cfg) != nil {
		return tsPaths{}, false
	}
	tp := tsPaths{}
	base := dir
	if cfg.CompilerOptions.BaseURL != "" {
		base = path.Join(dir, cfg.CompilerOptions.BaseURL)
		tp.baseURL = base
	}
	for pat, targets := range cfg.CompilerOptions.Paths {
		rule := tsPathRule{pattern: pat}
		for _, t := range targets {
			rule.targets = append(rule.targets, path.Join(base, t))
		}
		tp.paths = append(tp.paths, rule)
	}
	// The longest prefix wins, as in tsc.
	sort.Slice(tp.paths, func(i, j int) bool { return len(tp.paths[i].pattern) > len(tp.paths[j].pattern) })
	return tp, true
}

// resolve returns the workspace file a specifier in file from loads, or "".
func (r *jsResolver) resolve(from, spec string) string {
	spec, _, _ = strings.Cut(spec, "?")
	switch {
	case strings.HasPrefix(spec, "./"), strings.HasPrefix(spec, "../"), spec == ".", spec == "..":
		return r.probe(path.Join(path.Dir(from), spec))
	case strings.HasPrefix(spec, "node:"), strings.HasPrefix(spec, "/"), strings.Contains(spec, "://"):
		return ""
	}
	if tp, ok := r.tsPathsFor(from); ok {
		for _, rule := range tp.paths {
			if m, ok := matchTSPath(rule.pattern, spec); ok {
				for _, t := range rule.targets {
					if f := r.probe(strings.Replace(t, "*", m, 1)); f != "" {
						return f
					}
				}
			}
		}
		if tp.baseURL != "" {
			if f := r.probe(path.Join(tp.baseURL, spec)); f != "" {
				return f
			}
		}
	}
	name, sub := spec, ""
	if parts := strings.SplitN(spec, "/", 3); strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		name = parts[0] + "/" + parts[1]
		if len(parts) == 3 {
			sub = parts[2]
		}
	} else if i := strings.IndexByte(spec, '/'); i >= 0 {
		name, sub = spec[:i], spec[i+1:]
	}
	if dir, ok := r.packages[name]; ok {
		if sub != "" {
			return r.probe(path.Join(dir, sub))
		}
		return r.packageEntry(dir)
	}
	return ""
}

func (r *jsResolver) tsPathsFor(from string) (tsPaths, bool) {
	for dir := path.Dir(from); ; dir = path.Dir(dir) {
		if tp, ok := r.aliases[dir]; ok {
			return tp, true
		}
		if dir == "." {
			return tsPaths{}, false
		}
	}
}

func matchTSPath(pattern, spec string) (string, bool) {
	pre, post, star := strings.Cut(pattern, "*")
	if !star {
		return "", pattern == spec
	}
	if len(spec) < len(pre)+len(post) || !strings.HasPrefix(spec, pre) || !strings.HasSuffix(spec, post) {
		return "", false
	}
	return spec[len(pre) : len(spec)-len(post)], true
}

// probe finds the file a path names, trying extensions and index files.
func (r *jsResolver) probe(p string) string {
	if strings.HasPrefix(p, "../") || p == ".." {
		return "" // outside the workspace
	}
	if r.w.exists[p] {
		return p
	}
	ext := path.Ext(p)
	for _, e := range jsTSForJS[ext] {
		if f := strings.TrimSuffix(p, ext) + e; r.w.exists[f] {
			return f
		}
	}
	for _, e := range jsProbeExts {
		if r.w.exists[p+e] {
			return p + e
		}
	}
	for _, e := range jsProbeExts {
		if f := path.Join(p, "index"+e); r.w.exists[f] {
			return f
		}
	}
	return ""
}

// packageEntry is a workspace package's main file, or its index.
func (r *jsResolver) packageEntry(dir string) string {
	if data, err := r.w.read(path.Join(dir, "package.json")); err == nil {
		var pkg struct {
			Main   string `json:"main"`
			Module string `json:"module"`
		}
		if json.Unmarshal(data, &pkg) == nil {
			for _, m := range []string{pkg.Module, pkg.Main} {
				if m != "" {
					if f := r.probe(path.Join(dir, m)); f != "" {
						return f
					}
				}
			}
		}
	}
	return r.probe(path.Join(dir, "index"))
}

// addJSEdges adds the import edges of JS/TS files.
func addJSEdges(g *depGraph, w *workspace, imports map[string]fileImports) {
	r := newJSResolver(w)
	for file, fi := range imports {
		for _, spec := range fi.js {
			if target := r.resolve(file, spec); target != "" && target != file {
				g.add(jsNode(file), jsNode(target), viaImport)
			}
		}
	}
}

func jsNode(rel string) string { return "js:" + rel }

// jsonc strips the comments and trailing commas tsconfig files allow, so
// encoding/json can read them.
func jsonc(data []byte) []byte {
	out := make([]byte, 0, len(data))
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			out = append(out, c)
			if c == '\\' && i+1 < len(data) {
				i++
				out = append(out, data[i])
			} else if c == '"' {
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString = true
			out = append(out, c)
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			i += 2
			for i+1 < len(data) && (data[i] != '*' || data[i+1] != '/') {
				i++
			}
			i++
		case c == ']' || c == '}':
			// drop a trailing comma before the closer
			j := len(out) - 1
			for j >= 0 && (out[j] == ' ' || out[j] == '\t' || out[j] == '\n' || out[j] == '\r') {
				j--
			}
			if j >= 0 && out[j] == ',' {
				out = append(out[:j], out[j+1:]...)
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
