package inventory

import (
	"encoding/json"
	"regexp"
	"strings"
)

type packageJSONFile struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
}

// npmDepFields are package.json's dependency tables; dev marks the one
// whose packages only development needs.
var npmDepFields = []struct {
	field string
	dev   bool
}{
	{"dependencies", false},
	{"optionalDependencies", false},
	{"peerDependencies", false},
	{"devDependencies", true},
}

// npmExact matches a package.json version that pins one release: "1.2.3",
// "=1.2.3", "v1.2.3-beta.1".
var npmExact = regexp.MustCompile(`^(=|v|=v)?([0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?)$`)

// parsePackageJSON reads package.json's dependency tables. An exact
// version counts as the package's version (and can be bumped in place);
// a range is kept as a constraint.
func parsePackageJSON(src *Source, content []byte) error {
	var f packageJSONFile
	if err := json.Unmarshal(content, &f); err != nil {
		return err
	}
	src.Project = Project{Name: f.Name, Version: f.Version}
	lines := lineStarts(content)
	dev := map[string]bool{}
	for _, d := range npmDepFields {
		dev[d.field] = d.dev
	}
	err := walkJSON(content, func(m *jsonMember) bool {
		if len(m.path) == 0 {
			_, ok := dev[m.key]
			return ok
		}
		if len(m.path) != 1 {
			return false
		}
		isDev, ok := dev[m.path[0]]
		if !ok || content[m.value.Start] != '"' {
			return false
		}
		var spec string
		if json.Unmarshal(content[m.value.Start:m.value.End], &spec) != nil {
			return false
		}
		name, rng := m.key, strings.TrimSpace(spec)
		if alias, ok := strings.CutPrefix(rng, "npm:"); ok {
			name, rng = splitNameAt(alias)
		}
		p := Package{
			Ecosystem:  NPM,
			Name:       name,
			Constraint: spec,
			Relation:   Direct,
			Dev:        isDev,
			Location:   locate(src, lines, m.keyAt.Start, m.keyAt.End),
		}
		if sm := npmExact.FindStringSubmatch(rng); sm != nil {
			p.Version = sm[2]
			// The pin is inside the quotes, after any "=" or "v".
			if i := strings.Index(string(content[m.value.Start:m.value.End]), sm[2]); i >= 0 {
				p.Pin = Span{m.value.Start + i, m.value.Start + i + len(sm[2])}
			}
		}
		src.Packages = append(src.Packages, p)
		return false
	})
	return err
}

// splitNameAt splits "name@range" or "@scope/name@range".
func splitNameAt(s string) (name, rng string) {
	if i := strings.LastIndex(s, "@"); i > 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// npmDecl is what package.json says about one direct dependency.
type npmDecl struct {
	rng string
	dev bool
}

// npmDirect reads which names a package.json declares, with their ranges
// and whether only for development.
func npmDirect(content []byte) (map[string]npmDecl, error) {
	var f packageJSONFile
	if err := json.Unmarshal(content, &f); err != nil {
		return nil, err
	}
	out := map[string]npmDecl{}
	add := func(m map[string]string, dev bool) {
		for n, r := range m {
			if prev, ok := out[n]; !ok || prev.dev {
				out[n] = npmDecl{rng: r, dev: dev}
			}
		}
	}
	add(f.DevDependencies, true)
	add(f.Dependencies, false)
	add(f.OptionalDependencies, false)
	add(f.PeerDependencies, false)
	return out, nil
}

// npmRegistryVersion reports whether a lockfile's version field names a
// registry release rather than a git URL, tarball or local path.
func npmRegistryVersion(v string) bool {
	return v != "" && v[0] >= '0' && v[0] <= '9' && !strings.ContainsAny(v, ":/")
}
