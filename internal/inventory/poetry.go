package inventory

import (
	"maps"
	"slices"

	"github.com/BurntSushi/toml"
)

type poetryLockFile struct {
	Package []struct {
		Name         string         `toml:"name"`
		Version      string         `toml:"version"`
		Category     string         `toml:"category"`
		Groups       []string       `toml:"groups"`
		Dependencies map[string]any `toml:"dependencies"`
		Source       struct {
			Type string `toml:"type"`
		} `toml:"source"`
	} `toml:"package"`
}

// parsePoetryLock reads poetry.lock. The lockfile does not say which
// packages the project names itself; the pyproject.toml beside it does.
func parsePoetryLock(src *Source, content []byte, sibling Sibling) error {
	var f poetryLockFile
	if _, err := toml.Decode(string(content), &f); err != nil {
		return err
	}
	var direct map[string]pyDirect
	if pp, err := sibling("pyproject.toml"); err == nil {
		direct, _ = pyprojectDirect(pp)
	}
	lines := lineStarts(content)
	blocks := arrayBlocks(content, "package")
	byName := map[string]string{}
	for _, p := range f.Package {
		byName[NormalizePyPI(p.Name)] = Key(PyPI, NormalizePyPI(p.Name), p.Version)
	}
	for i, lp := range f.Package {
		if lp.Source.Type == "directory" || lp.Source.Type == "file" {
			continue // the project itself or a local path: nothing published to match
		}
		p := Package{
			Ecosystem: PyPI,
			Name:      NormalizePyPI(lp.Name),
			Version:   lp.Version,
			Dev:       lp.Category == "dev" || (len(lp.Groups) > 0 && !contains(lp.Groups, "main")),
		}
		if direct != nil {
			p.Relation = Transitive
			if d, ok := direct[p.Name]; ok {
				p.Relation = Direct
				p.Dev = p.Dev || d.dev
			}
		}
		p.Location = Location{File: src.Path}
		if i < len(blocks) {
			if sp, ok := tomlNameValue(content, blocks[i], lp.Name); ok {
				p.Location = locate(src, lines, sp.Start, sp.End)
			}
		}
		for _, dep := range slices.Sorted(maps.Keys(lp.Dependencies)) {
			if k, ok := byName[NormalizePyPI(dep)]; ok {
				p.Deps = append(p.Deps, k)
			}
		}
		src.Packages = append(src.Packages, p)
	}
	return nil
}

// arrayBlocks returns, in order, the byte range of each [[name]] element
// including its sub-tables ([name.dependencies]).
func arrayBlocks(content []byte, name string) []tomlSection {
	var out []tomlSection
	for _, s := range tomlSections(content) {
		switch {
		case s.array && s.name == name:
			out = append(out, s)
		case len(out) > 0 && len(s.name) > len(name) && s.name[:len(name)+1] == name+".":
			out[len(out)-1].end = s.end
		}
	}
	return out
}

// tomlNameValue finds `name = "value"` in a block and returns the span of
// the value.
func tomlNameValue(content []byte, b tomlSection, value string) (Span, bool) {
	k, ok := keySpan(content, b.start, b.end, "name")
	if !ok {
		return Span{}, false
	}
	end := b.end
	for i := k.End; i < b.end; i++ {
		if content[i] == '\n' {
			end = i
			break
		}
	}
	return quotedSpan(content, k.End, end, value)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
