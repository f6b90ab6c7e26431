package inventory

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

type pyprojectFile struct {
	Project struct {
		Name                 string              `toml:"name"`
		Version              string              `toml:"version"`
		Dependencies         []string            `toml:"dependencies"`
		OptionalDependencies map[string][]string `toml:"optional-dependencies"`
	} `toml:"project"`
	DependencyGroups map[string][]any `toml:"dependency-groups"`
	Tool             struct {
		Poetry struct {
			Name            string         `toml:"name"`
			Version         string         `toml:"version"`
			Dependencies    map[string]any `toml:"dependencies"`
			DevDependencies map[string]any `toml:"dev-dependencies"`
			Group           map[string]struct {
				Dependencies map[string]any `toml:"dependencies"`
			} `toml:"group"`
		} `toml:"poetry"`
	} `toml:"tool"`
}

// pyDirect is what a pyproject.toml says about one dependency.
type pyDirect struct {
	dev bool
}

// parsePyProject reads PEP 621 [project] dependencies and extras, PEP 735
// [dependency-groups], and Poetry's [tool.poetry.*dependencies] tables.
func parsePyProject(src *Source, content []byte) error {
	var f pyprojectFile
	if _, err := toml.Decode(string(content), &f); err != nil {
		return err
	}
	src.Project = Project{Name: f.Project.Name, Version: f.Project.Version}
	if src.Project.Name == "" {
		src.Project = Project{Name: f.Tool.Poetry.Name, Version: f.Tool.Poetry.Version}
	}
	lines := lineStarts(content)
	secs := tomlSections(content)
	whole := tomlSection{start: 0, end: len(content)}
	find := func(names ...string) tomlSection {
		for _, n := range names {
			if s, ok := section(secs, n); ok {
				return s
			}
		}
		return whole
	}

	addPEP508 := func(spec string, sec tomlSection, dev bool) {
		r, ok := parsePEP508(spec)
		if !ok {
			return
		}
		p := Package{
			Ecosystem:  PyPI,
			Name:       NormalizePyPI(r.name),
			Version:    r.pinned,
			Constraint: r.spec,
			Relation:   Direct,
			Dev:        dev,
		}
		sp, ok := quotedSpan(content, sec.start, sec.end, spec)
		if !ok {
			sp, ok = quotedSpan(content, 0, len(content), spec)
		}
		if ok {
			p.Location = locate(src, lines, sp.Start, sp.Start+len(r.name))
			if r.pinned != "" {
				if i := strings.LastIndex(spec, r.pinned); i >= 0 {
					p.Pin = Span{sp.Start + i, sp.Start + i + len(r.pinned)}
				}
			}
		} else {
			p.Location = Location{File: src.Path}
		}
		src.Packages = append(src.Packages, p)
	}
	projSec := find("project")
	for _, d := range f.Project.Dependencies {
		addPEP508(d, projSec, false)
	}
	for _, extra := range slices.Sorted(maps.Keys(f.Project.OptionalDependencies)) {
		sec := find("project.optional-dependencies", "project")
		for _, d := range f.Project.OptionalDependencies[extra] {
			addPEP508(d, sec, false)
		}
	}
	for _, g := range slices.Sorted(maps.Keys(f.DependencyGroups)) {
		sec := find("dependency-groups")
		for _, d := range f.DependencyGroups[g] {
			if s, ok := d.(string); ok { // {include-group = "x"} entries name no package
				addPEP508(s, sec, true)
			}
		}
	}

	addPoetry := func(deps map[string]any, secName string, dev bool) {
		sec, ok := section(secs, secName)
		if !ok {
			sec = whole
		}
		for _, name := range slices.Sorted(maps.Keys(deps)) {
			if strings.EqualFold(name, "python") {
				continue
			}
			constraint := poetryConstraint(deps[name])
			p := Package{
				Ecosystem:  PyPI,
				Name:       NormalizePyPI(name),
				Constraint: constraint,
				Relation:   Direct,
				Dev:        dev,
			}
			if poetryExact.MatchString(constraint) {
				p.Version = strings.TrimLeft(constraint, "=")
			}
			if sp, ok := keySpan(content, sec.start, sec.end, name); ok {
				p.Location = locate(src, lines, sp.Start, sp.End)
				if p.Version != "" {
					lineEnd := sec.end
					if nl := strings.IndexByte(string(content[sp.End:sec.end]), '\n'); nl >= 0 {
						lineEnd = sp.End + nl
					}
					if vs, ok := quotedSpan(content, sp.End, lineEnd, constraint); ok {
						off := len(constraint) - len(p.Version)
						p.Pin = Span{vs.Start + off, vs.End}
					}
				}
			} else {
				p.Location = Location{File: src.Path}
			}
			src.Packages = append(src.Packages, p)
		}
	}
	addPoetry(f.Tool.Poetry.Dependencies, "tool.poetry.dependencies", false)
	addPoetry(f.Tool.Poetry.DevDependencies, "tool.poetry.dev-dependencies", true)
	for _, g := range slices.Sorted(maps.Keys(f.Tool.Poetry.Group)) {
		addPoetry(f.Tool.Poetry.Group[g].Dependencies, "tool.poetry.group."+g+".dependencies", true)
	}
	return nil
}

// poetryExact matches a Poetry constraint that pins one version: "1.2.3"
// or "==1.2.3" (Poetry reads a bare version as ==).
var poetryExact = regexp.MustCompile(`^(==)?[0-9][0-9A-Za-z.!+_-]*$`)

// poetryConstraint returns the version constraint of a Poetry dependency,
// written as "^1.2" or {version = "^1.2", ...}; "" for git or path sources.
func poetryConstraint(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case map[string]any:
		if s, ok := t["version"].(string); ok {
			return strings.TrimSpace(s)
		}
	case []map[string]any: // multiple-constraint dependency: take the first
		if len(t) > 0 {
			return poetryConstraint(t[0])
		}
	}
	return ""
}

// pyprojectDirect reads which PyPI names a pyproject.toml declares, for the
// lockfile next to it.
func pyprojectDirect(content []byte) (map[string]pyDirect, error) {
	src := &Source{Path: "pyproject.toml", Kind: KindPyProject}
	if err := parsePyProject(src, content); err != nil {
		return nil, fmt.Errorf("pyproject.toml: %w", err)
	}
	out := map[string]pyDirect{}
	for _, p := range src.Packages {
		if d, ok := out[p.Name]; ok && !d.dev {
			continue
		}
		out[p.Name] = pyDirect{dev: p.Dev}
	}
	return out, nil
}
