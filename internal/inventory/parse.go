package inventory

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// Kind is the kind of manifest or lockfile a Source was read from.
type Kind string

const (
	KindGoMod        Kind = "go.mod"
	KindGoSum        Kind = "go.sum"
	KindRequirements Kind = "requirements.txt"
	KindPyProject    Kind = "pyproject.toml"
	KindPoetryLock   Kind = "poetry.lock"
	KindUVLock       Kind = "uv.lock"
	KindPackageJSON  Kind = "package.json"
	KindPackageLock  Kind = "package-lock.json"
	KindPnpmLock     Kind = "pnpm-lock.yaml"
	KindYarnLock     Kind = "yarn.lock"
)

// KindOf tells which kind of manifest or lockfile path names, by its base
// name: requirements*.txt and *.txt under a "requirements" directory are
// requirement files; npm-shrinkwrap.json reads as a package-lock.json.
func KindOf(p string) (Kind, bool) {
	p = strings.ReplaceAll(p, `\`, "/")
	base := path.Base(p)
	switch base {
	case "go.mod":
		return KindGoMod, true
	case "go.sum":
		return KindGoSum, true
	case "pyproject.toml":
		return KindPyProject, true
	case "poetry.lock":
		return KindPoetryLock, true
	case "uv.lock":
		return KindUVLock, true
	case "package.json":
		return KindPackageJSON, true
	case "package-lock.json", "npm-shrinkwrap.json":
		return KindPackageLock, true
	case "pnpm-lock.yaml":
		return KindPnpmLock, true
	case "yarn.lock":
		return KindYarnLock, true
	}
	if strings.HasSuffix(base, ".txt") {
		if strings.HasPrefix(base, "requirements") || strings.HasSuffix(base, "-requirements.txt") ||
			strings.HasSuffix(base, ".requirements.txt") || path.Base(path.Dir(p)) == "requirements" {
			return KindRequirements, true
		}
	}
	return "", false
}

// Ecosystem is the ecosystem a kind of file belongs to.
func (k Kind) Ecosystem() Ecosystem {
	switch k {
	case KindGoMod, KindGoSum:
		return Go
	case KindRequirements, KindPyProject, KindPoetryLock, KindUVLock:
		return PyPI
	}
	return NPM
}

// Resolves reports whether the kind records the versions actually
// installed (a lockfile, or go.mod, which is Go's), rather than
// constraints.
func (k Kind) Resolves() bool {
	switch k {
	case KindPyProject, KindPackageJSON, KindRequirements:
		return false
	}
	return true
}

// Project names the project a manifest describes, when it says.
type Project struct {
	Name    string
	Version string
}

// Source is what one file declares.
type Source struct {
	Path     string
	Kind     Kind
	Project  Project
	Packages []Package // sorted by position in the file
	// GoVersion is a go.mod's go line ("1.22"); "" for other kinds.
	GoVersion string
}

// Sibling reads a file in the same directory as the one being parsed, by
// base name (the package.json next to a lockfile, the pyproject.toml next
// to poetry.lock). It returns an error when the file is not there.
type Sibling func(name string) ([]byte, error)

// Parse reads one manifest or lockfile. content is what the user sees (an
// editor buffer may differ from the disk); sibling, which may be nil, lets
// a lockfile learn from its manifest which packages are direct.
func Parse(path string, content []byte, sibling Sibling) (*Source, error) {
	kind, ok := KindOf(path)
	if !ok {
		return nil, fmt.Errorf("inventory: %s is not a manifest or lockfile aisbx knows", path)
	}
	if sibling == nil {
		sibling = func(string) ([]byte, error) { return nil, errNoSibling }
	}
	src := &Source{Path: path, Kind: kind}
	var err error
	switch kind {
	case KindGoMod:
		err = parseGoMod(src, content)
	case KindGoSum:
		err = parseGoSum(src, content)
	case KindRequirements:
		err = parseRequirements(src, content)
	case KindPyProject:
		err = parsePyProject(src, content)
	case KindPoetryLock:
		err = parsePoetryLock(src, content, sibling)
	case KindUVLock:
		err = parseUVLock(src, content)
	case KindPackageJSON:
		err = parsePackageJSON(src, content)
	case KindPackageLock:
		err = parsePackageLock(src, content, sibling)
	case KindPnpmLock:
		err = parsePnpmLock(src, content)
	case KindYarnLock:
		err = parseYarnLock(src, content, sibling)
	}
	if err != nil {
		return nil, fmt.Errorf("inventory: %s: %w", path, err)
	}
	sortByPosition(src.Packages)
	return src, nil
}

// sortByPosition orders packages as they appear in the file. Package is a
// large struct: sorting indexes and permuting once is much cheaper than
// letting a stable sort move the structs.
func sortByPosition(pkgs []Package) {
	order := make([]int, len(pkgs))
	for i := range order {
		order[i] = i
	}
	sorted := true
	for i := 1; i < len(pkgs); i++ {
		if pkgs[i].Location.Span.Start < pkgs[i-1].Location.Span.Start {
			sorted = false
			break
		}
	}
	if sorted {
		return
	}
	sort.SliceStable(order, func(a, b int) bool {
		return pkgs[order[a]].Location.Span.Start < pkgs[order[b]].Location.Span.Start
	})
	out := make([]Package, len(pkgs))
	for i, j := range order {
		out[i] = pkgs[j]
	}
	copy(pkgs, out)
}

var errNoSibling = fmt.Errorf("no sibling reader")

// lineAt returns the 1-based line of byte offset off.
func lineAt(lines []int, off int) int {
	return sort.Search(len(lines), func(i int) bool { return lines[i] > off })
}

// lineStarts returns the offset at which each line starts.
func lineStarts(content []byte) []int {
	lines := make([]int, 1, 64)
	for i, c := range content {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// locate builds a Location for the span [start, end).
func locate(src *Source, lines []int, start, end int) Location {
	return Location{File: src.Path, Line: lineAt(lines, start), Span: Span{start, end}}
}
