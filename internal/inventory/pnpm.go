package inventory

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// parsePnpmLock reads pnpm-lock.yaml, lockfileVersion 5.x ("/name/1.0.0"
// keys), 6.x ("/name@1.0.0") and 9.x ("name@1.0.0", with the dependency
// graph in "snapshots").
func parsePnpmLock(src *Source, content []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(content, &doc); err != nil {
		return err
	}
	if len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return fmt.Errorf("not a pnpm lockfile: the top level is not a mapping")
	}
	major := 0
	if v := yamlGet(root, "lockfileVersion"); v != nil {
		f, err := strconv.ParseFloat(strings.Trim(v.Value, `'"`), 64)
		if err != nil {
			return fmt.Errorf("lockfileVersion %q: %w", v.Value, err)
		}
		major = int(f)
	}
	v5 := major > 0 && major < 6
	lines := lineStarts(content)

	// Direct dependencies: each importer's (a workspace member's), or the
	// top level's in single-project lockfiles before 6.0.
	direct := map[string]bool{} // key -> dev
	addImporter := func(m *yaml.Node) {
		for _, field := range npmDepFields {
			deps := yamlGet(m, field.field)
			if deps == nil || deps.Kind != yaml.MappingNode {
				continue
			}
			for i := 0; i+1 < len(deps.Content); i += 2 {
				name, val := deps.Content[i].Value, deps.Content[i+1]
				ver := val.Value
				if val.Kind == yaml.MappingNode {
					if v := yamlGet(val, "version"); v != nil {
						ver = v.Value
					}
				}
				ver = pnpmStripPeers(ver, v5)
				if !npmRegistryVersion(ver) {
					continue
				}
				k := Key(NPM, name, ver)
				if prev, ok := direct[k]; !ok || prev {
					direct[k] = field.dev
				}
			}
		}
	}
	if imp := yamlGet(root, "importers"); imp != nil && imp.Kind == yaml.MappingNode {
		for i := 1; i < len(imp.Content); i += 2 {
			addImporter(imp.Content[i])
		}
	} else {
		addImporter(root)
	}

	// 9.x keeps dependencies in snapshots, keyed like packages but with
	// peer suffixes; earlier versions keep them in the package entry.
	snapDeps := map[string][]string{}
	if snaps := yamlGet(root, "snapshots"); snaps != nil && snaps.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(snaps.Content); i += 2 {
			name, ver, ok := pnpmKey(snaps.Content[i].Value, false)
			if !ok {
				continue
			}
			k := Key(NPM, name, ver)
			snapDeps[k] = append(snapDeps[k], pnpmDeps(snaps.Content[i+1], false)...)
		}
	}

	pkgs := yamlGet(root, "packages")
	if pkgs == nil || pkgs.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(pkgs.Content); i += 2 {
		kn, val := pkgs.Content[i], pkgs.Content[i+1]
		name, ver, ok := pnpmKey(kn.Value, v5)
		if !ok {
			continue
		}
		p := Package{Ecosystem: NPM, Name: name, Version: ver, Relation: Transitive}
		if dev, ok := direct[p.Key()]; ok {
			p.Relation, p.Dev = Direct, dev
		}
		if d := yamlGet(val, "dev"); d != nil && d.Value == "true" {
			p.Dev = true
		}
		start := yamlOffset(lines, kn.Line, kn.Column, len(content))
		end := start + len(kn.Value)
		if kn.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 {
			end += 2
		}
		p.Location = locate(src, lines, start, min(end, len(content)))
		if ds, ok := snapDeps[p.Key()]; ok {
			slices.Sort(ds)
			p.Deps = slices.Compact(ds)
		} else {
			p.Deps = pnpmDeps(val, v5)
		}
		src.Packages = append(src.Packages, p)
	}
	return nil
}

// pnpmKey splits a packages or snapshots key into name and version.
func pnpmKey(k string, v5 bool) (name, version string, ok bool) {
	k = strings.TrimPrefix(k, "/")
	if i := strings.Index(k, "("); i >= 0 {
		k = k[:i]
	}
	var i int
	if v5 {
		i = strings.LastIndex(k, "/")
	} else {
		i = strings.LastIndex(k, "@")
	}
	if i <= 0 {
		return "", "", false
	}
	name, version = k[:i], pnpmStripPeers(k[i+1:], v5)
	return name, version, npmRegistryVersion(version)
}

// pnpmStripPeers drops the peer-dependency suffix pnpm appends to a
// version: "(react@18.2.0)" since 6.0, "_react@18.2.0" before.
func pnpmStripPeers(v string, v5 bool) string {
	if i := strings.Index(v, "("); i >= 0 {
		v = v[:i]
	}
	if v5 {
		if i := strings.Index(v, "_"); i >= 0 {
			v = v[:i]
		}
	}
	return v
}

// pnpmDeps lists the keys an entry's dependencies resolve to.
func pnpmDeps(entry *yaml.Node, v5 bool) []string {
	var out []string
	for _, field := range []string{"dependencies", "optionalDependencies"} {
		deps := yamlGet(entry, field)
		if deps == nil || deps.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(deps.Content); i += 2 {
			ver := pnpmStripPeers(deps.Content[i+1].Value, v5)
			if npmRegistryVersion(ver) {
				out = append(out, Key(NPM, deps.Content[i].Value, ver))
			}
		}
	}
	return out
}

func yamlGet(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// yamlOffset turns yaml's 1-based line and column into a byte offset;
// lockfile keys are ASCII, so columns count bytes.
func yamlOffset(lines []int, line, col, size int) int {
	if line < 1 || line > len(lines) {
		return 0
	}
	return min(lines[line-1]+max(col-1, 0), size)
}
