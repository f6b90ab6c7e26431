package inventory

import (
	"maps"
	"slices"

	"github.com/BurntSushi/toml"
)

type uvDep struct {
	Name    string `toml:"name"`
	Version string `toml:"version"`
}

type uvLockFile struct {
	Package []struct {
		Name                 string             `toml:"name"`
		Version              string             `toml:"version"`
		Source               map[string]any     `toml:"source"`
		Dependencies         []uvDep            `toml:"dependencies"`
		OptionalDependencies map[string][]uvDep `toml:"optional-dependencies"`
		DevDependencies      map[string][]uvDep `toml:"dev-dependencies"`
	} `toml:"package"`
}

// parseUVLock reads uv.lock. The workspace's own packages (source editable
// or virtual) are not dependencies; what they require is direct.
func parseUVLock(src *Source, content []byte) error {
	var f uvLockFile
	if _, err := toml.Decode(string(content), &f); err != nil {
		return err
	}
	versions := map[string][]string{}
	for _, p := range f.Package {
		n := NormalizePyPI(p.Name)
		versions[n] = append(versions[n], p.Version)
	}
	depKey := func(d uvDep) (string, bool) {
		n := NormalizePyPI(d.Name)
		if d.Version != "" {
			return Key(PyPI, n, d.Version), true
		}
		if vs := versions[n]; len(vs) == 1 {
			return Key(PyPI, n, vs[0]), true
		}
		return "", false
	}
	direct := map[string]bool{} // key -> dev
	local := func(src map[string]any) bool {
		for _, k := range []string{"editable", "virtual", "directory", "path"} {
			if _, ok := src[k]; ok {
				return true
			}
		}
		return false
	}
	for _, p := range f.Package {
		if !local(p.Source) {
			continue
		}
		mark := func(ds []uvDep, dev bool) {
			for _, d := range ds {
				if k, ok := depKey(d); ok {
					if prev, seen := direct[k]; !seen || prev {
						direct[k] = dev
					}
				}
			}
		}
		mark(p.Dependencies, false)
		for _, g := range slices.Sorted(maps.Keys(p.OptionalDependencies)) {
			mark(p.OptionalDependencies[g], false)
		}
		for _, g := range slices.Sorted(maps.Keys(p.DevDependencies)) {
			mark(p.DevDependencies[g], true)
		}
	}
	lines := lineStarts(content)
	blocks := arrayBlocks(content, "package")
	for i, lp := range f.Package {
		if local(lp.Source) {
			if _, ok := lp.Source["editable"]; ok || src.Project.Name == "" {
				src.Project = Project{Name: lp.Name, Version: lp.Version}
			}
			continue
		}
		p := Package{
			Ecosystem: PyPI,
			Name:      NormalizePyPI(lp.Name),
			Version:   lp.Version,
			Relation:  Transitive,
			Location:  Location{File: src.Path},
		}
		if dev, ok := direct[p.Key()]; ok {
			p.Relation, p.Dev = Direct, dev
		}
		if i < len(blocks) {
			if sp, ok := tomlNameValue(content, blocks[i], lp.Name); ok {
				p.Location = locate(src, lines, sp.Start, sp.End)
			}
		}
		for _, d := range lp.Dependencies {
			if k, ok := depKey(d); ok {
				p.Deps = append(p.Deps, k)
			}
		}
		src.Packages = append(src.Packages, p)
	}
	return nil
}
