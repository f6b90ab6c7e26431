package inventory

import (
	"bytes"
	"strconv"
	"strings"
)

// yarnEntry is one resolution block of a yarn.lock.
type yarnEntry struct {
	specs      []string // "lodash@^4.17.15", "lodash@npm:^4.17.20"
	name       string
	version    string
	resolution string   // berry only
	deps       []string // specs of dependencies, as headers write them
	start, end int      // the name on the header line
}

// parseYarnLock reads yarn.lock, both Yarn 1's own format and Yarn 2+'s
// ("berry") YAML. The two share their shape: an unindented header listing
// the specs an entry resolves, then indented fields. A line reader handles
// both; the Yarn 1 format is not YAML.
func parseYarnLock(src *Source, content []byte, sibling Sibling) error {
	var direct map[string]npmDecl
	if pj, err := sibling("package.json"); err == nil {
		direct, _ = npmDirect(pj)
	}
	lines := lineStarts(content)
	var entries []*yarnEntry
	var cur *yarnEntry
	inDeps := false
	for i, start := range lines {
		end := len(content)
		if i+1 < len(lines) {
			end = lines[i+1] - 1
		}
		line := strings.TrimRight(string(content[start:end]), "\r")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		switch {
		case indent == 0:
			inDeps = false
			cur = nil
			if !strings.HasSuffix(trimmed, ":") || strings.HasPrefix(trimmed, "__metadata") {
				continue
			}
			e := &yarnEntry{}
			for _, s := range strings.Split(strings.TrimSuffix(trimmed, ":"), ",") {
				s = yarnUnquote(strings.TrimSpace(s))
				if s != "" {
					e.specs = append(e.specs, s)
				}
			}
			if len(e.specs) == 0 {
				continue
			}
			e.name = yarnSpecName(e.specs[0])
			if j := bytes.Index(content[start:end], []byte(e.name)); j >= 0 {
				e.start, e.end = start+j, start+j+len(e.name)
			} else {
				e.start, e.end = start, end
			}
			entries = append(entries, e)
			cur = e
		case cur == nil:
			continue
		case indent <= 2:
			key, val := yarnField(trimmed)
			inDeps = key == "dependencies" || key == "optionalDependencies"
			switch key {
			case "version":
				cur.version = val
			case "resolution":
				cur.resolution = val
			}
		case inDeps:
			key, val := yarnField(trimmed)
			if key != "" && val != "" {
				cur.deps = append(cur.deps, key+"@"+val)
			}
		}
	}

	specKey := map[string]string{}
	var kept []*yarnEntry
	for _, e := range entries {
		if yarnLocal(e) {
			continue
		}
		kept = append(kept, e)
		for _, s := range e.specs {
			specKey[s] = Key(NPM, e.name, e.version)
		}
	}
	for _, e := range kept {
		p := Package{Ecosystem: NPM, Name: e.name, Relation: Transitive}
		if npmRegistryVersion(e.version) {
			p.Version = e.version
		} else {
			p.Constraint = e.version
		}
		if direct != nil {
			// Only the entry that resolves package.json's own range is
			// direct; other versions of the name come from dependencies.
			if d, ok := direct[e.name]; ok && (contains(e.specs, e.name+"@"+d.rng) || contains(e.specs, e.name+"@npm:"+d.rng)) {
				p.Relation, p.Dev = Direct, d.dev
			}
		} else {
			p.Relation = RelationUnknown
		}
		p.Location = locate(src, lines, e.start, e.end)
		for _, d := range e.deps {
			k, ok := specKey[d]
			if !ok {
				// Berry headers spell registry ranges "name@npm:range";
				// its dependency lists may leave out the "npm:".
				n := yarnSpecName(d)
				k, ok = specKey[n+"@npm:"+strings.TrimPrefix(d, n+"@")]
			}
			if ok {
				p.Deps = append(p.Deps, k)
			}
		}
		src.Packages = append(src.Packages, p)
	}
	return nil
}

// yarnLocal reports entries that are the workspace itself or local paths.
func yarnLocal(e *yarnEntry) bool {
	r := e.resolution
	if r == "" && len(e.specs) > 0 {
		r = e.specs[0]
	}
	rest := strings.TrimPrefix(r, e.name+"@")
	for _, proto := range []string{"workspace:", "link:", "portal:", "file:"} {
		if strings.HasPrefix(rest, proto) {
			return true
		}
	}
	return false
}

// yarnSpecName returns the package name of "name@range" or
// "@scope/name@range"; the first "@" after the start ends the name, since
// berry ranges ("patch:resolve@npm%3A1.0.0") may hold more.
func yarnSpecName(spec string) string {
	if len(spec) < 2 {
		return spec
	}
	if i := strings.IndexByte(spec[1:], '@'); i >= 0 {
		return spec[:i+1]
	}
	return spec
}

// yarnField splits `key "value"` (Yarn 1) or `key: value` (berry); either
// key may be quoted ("@babel/core").
func yarnField(s string) (key, val string) {
	var rest string
	if strings.HasPrefix(s, `"`) {
		j := strings.Index(s[1:], `"`)
		if j < 0 {
			return s, ""
		}
		key, rest = s[1:j+1], s[j+2:]
	} else {
		i := strings.IndexAny(s, " \t:")
		if i < 0 {
			return s, ""
		}
		key, rest = s[:i], s[i:]
	}
	rest = strings.TrimPrefix(strings.TrimSpace(rest), ":")
	return key, yarnUnquote(strings.TrimSpace(rest))
}

func yarnUnquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
		return s[1 : len(s)-1]
	}
	return s
}
