package inventory

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

type npmLockFile struct {
	LockfileVersion int                       `json:"lockfileVersion"`
	Name            string                    `json:"name"`
	Version         string                    `json:"version"`
	Packages        map[string]npmLockPackage `json:"packages"`
	Dependencies    map[string]npmLockEntryV1 `json:"dependencies"`
}

type npmLockPackage struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Dev                  bool              `json:"dev"`
	Link                 bool              `json:"link"`
	Dependencies         map[string]string `json:"dependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
}

type npmLockEntryV1 struct {
	Version      string                    `json:"version"`
	Dev          bool                      `json:"dev"`
	Requires     map[string]string         `json:"requires"`
	Dependencies map[string]npmLockEntryV1 `json:"dependencies"`
}

// parsePackageLock reads package-lock.json and npm-shrinkwrap.json:
// lockfileVersion 2 and 3 through "packages" (keyed by install path), 1
// through nested "dependencies".
func parsePackageLock(src *Source, content []byte, sibling Sibling) error {
	var f npmLockFile
	if err := json.Unmarshal(content, &f); err != nil {
		return err
	}
	src.Project = Project{Name: f.Name, Version: f.Version}
	lines := lineStarts(content)
	if len(f.Packages) > 0 {
		return npmLockV2(src, content, lines, &f)
	}
	var direct map[string]npmDecl
	if pj, err := sibling("package.json"); err == nil {
		direct, _ = npmDirect(pj)
	}
	return npmLockV1(src, content, lines, &f, direct)
}

func npmLockV2(src *Source, content []byte, lines []int, f *npmLockFile) error {
	keyAt := make(map[string]Span, len(f.Packages))
	err := walkJSON(content, func(m *jsonMember) bool {
		switch len(m.path) {
		case 0:
			return m.key == "packages"
		case 1:
			keyAt[m.key] = m.keyAt
		}
		return false
	})
	if err != nil {
		return err
	}
	// The root and workspace members ("packages/app") name the direct
	// dependencies; they are hoisted to node_modules/<name>.
	direct := map[string]bool{}
	for path, p := range f.Packages {
		if path != "" && strings.Contains(path, "node_modules/") {
			continue
		}
		for _, m := range []map[string]string{p.Dependencies, p.OptionalDependencies, p.PeerDependencies} {
			for n := range m {
				if _, ok := direct[n]; !ok {
					direct[n] = false
				}
			}
		}
		for n := range p.DevDependencies {
			if _, ok := direct[n]; !ok {
				direct[n] = true
			}
		}
	}
	name := func(path string, p npmLockPackage) string {
		if p.Name != "" {
			return p.Name
		}
		i := strings.LastIndex(path, "node_modules/")
		return path[i+len("node_modules/"):]
	}
	keyOf := map[string]string{}
	for path, p := range f.Packages {
		if strings.Contains(path, "node_modules/") && !p.Link {
			keyOf[path] = Key(NPM, name(path, p), p.Version)
		}
	}
	for path, lp := range f.Packages {
		if !strings.Contains(path, "node_modules/") || lp.Link {
			continue // the root, a workspace member, or a link to one
		}
		n := name(path, lp)
		p := Package{Ecosystem: NPM, Name: n, Dev: lp.Dev, Relation: Transitive}
		if npmRegistryVersion(lp.Version) {
			p.Version = lp.Version
		} else {
			p.Constraint = lp.Version
		}
		alias := path[strings.LastIndex(path, "node_modules/")+len("node_modules/"):]
		if _, ok := direct[alias]; ok && strings.Count(path, "node_modules/") == 1 {
			p.Relation = Direct
		}
		if sp, ok := keyAt[path]; ok {
			p.Location = locate(src, lines, sp.Start, sp.End)
		} else {
			p.Location = Location{File: src.Path}
		}
		for _, m := range []map[string]string{lp.Dependencies, lp.OptionalDependencies, lp.PeerDependencies} {
			for _, dn := range slices.Sorted(maps.Keys(m)) {
				if k, ok := resolveNodeModules(keyOf, path, dn); ok {
					p.Deps = append(p.Deps, k)
				}
			}
		}
		src.Packages = append(src.Packages, p)
	}
	return nil
}

// resolveNodeModules finds which installed copy of dep the package at
// path loads, the way Node's resolver walks up node_modules directories.
func resolveNodeModules(keyOf map[string]string, path, dep string) (string, bool) {
	base := path
	for {
		cand := "node_modules/" + dep
		if base != "" {
			cand = base + "/node_modules/" + dep
		}
		if k, ok := keyOf[cand]; ok {
			return k, true
		}
		if base == "" {
			return "", false
		}
		if i := strings.LastIndex(base, "/node_modules/"); i >= 0 {
			base = base[:i]
		} else if strings.HasPrefix(base, "node_modules/") {
			base = ""
		} else if i := strings.LastIndex(base, "/"); i >= 0 {
			base = base[:i]
		} else {
			base = ""
		}
	}
}

func npmLockV1(src *Source, content []byte, lines []int, f *npmLockFile, direct map[string]npmDecl) error {
	// Nested entries are keyed by their chain of names:
	// "a/dependencies/b" is b installed under a.
	keyAt := map[string]Span{}
	err := walkJSON(content, func(m *jsonMember) bool {
		n := len(m.path)
		if n == 0 {
			return m.key == "dependencies"
		}
		if n%2 == 0 { // inside an entry: only its nested dependencies matter
			return m.key == "dependencies"
		}
		keyAt[strings.Join(append(m.path[1:n:n], m.key), "/")] = m.keyAt
		return true
	})
	if err != nil {
		return err
	}
	required := map[string]bool{}
	var walk func(prefix string, deps map[string]npmLockEntryV1, top bool)
	walk = func(prefix string, deps map[string]npmLockEntryV1, top bool) {
		for _, n := range slices.Sorted(maps.Keys(deps)) {
			e := deps[n]
			for r := range e.Requires {
				required[r] = true
			}
			path := n
			if prefix != "" {
				path = prefix + "/dependencies/" + n
			}
			name, version := n, e.Version
			if alias, ok := strings.CutPrefix(version, "npm:"); ok {
				name, version = splitNameAt(alias)
			}
			p := Package{Ecosystem: NPM, Name: name, Dev: e.Dev, Relation: Transitive}
			if npmRegistryVersion(version) {
				p.Version = version
			} else {
				p.Constraint = version
			}
			if top && direct != nil {
				if _, ok := direct[n]; ok {
					p.Relation = Direct
				}
			} else if top {
				p.Relation = RelationUnknown
			}
			if sp, ok := keyAt[path]; ok {
				p.Location = locate(src, lines, sp.Start, sp.End)
			} else {
				p.Location = Location{File: src.Path}
			}
			src.Packages = append(src.Packages, p)
			walk(path, e.Dependencies, false)
		}
	}
	walk("", f.Dependencies, true)
	// Without package.json, a top-level entry nothing else requires can
	// only be there because the project asked for it.
	if direct == nil {
		for i := range src.Packages {
			p := &src.Packages[i]
			if p.Relation == RelationUnknown && !required[p.Name] {
				p.Relation = Direct
			}
		}
	}
	return nil
}
