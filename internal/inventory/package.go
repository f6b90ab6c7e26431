package inventory

import (
	"strings"
)

// Ecosystem names a package ecosystem exactly as OSV spells it.
type Ecosystem string

const (
	Go   Ecosystem = "Go"
	PyPI Ecosystem = "PyPI"
	NPM  Ecosystem = "npm"
)

// Relation says how a package got into the workspace.
type Relation uint8

const (
	RelationUnknown Relation = iota
	Direct                   // named by the project's own manifest
	Transitive               // pulled in by another dependency
)

func (r Relation) String() string {
	switch r {
	case Direct:
		return "direct"
	case Transitive:
		return "transitive"
	}
	return "unknown"
}

// Span is a byte range [Start, End) of a file.
type Span struct{ Start, End int }

// Empty reports whether the span covers nothing.
func (s Span) Empty() bool { return s.End <= s.Start }

// Location is where a package is declared.
type Location struct {
	File string // as given to Parse; Scan makes it slash-separated and relative to the root
	Line int    // 1-based line of the declaring entry
	Span Span   // the package's name or key as written on that line
}

// Package is one dependency as a manifest or lockfile declares it.
type Package struct {
	Ecosystem Ecosystem
	// Name is normalised the way OSV expects: Go module path, npm name
	// (with scope), PyPI name per PEP 503.
	Name string
	// Version is the exact resolved version, "" when the file only gives a
	// constraint. Go versions keep their "v".
	Version string
	// Constraint is the requirement as a manifest writes it ("^4.17.0",
	// ">=2.0,<3"); "" in lockfiles.
	Constraint string
	Relation   Relation
	Dev        bool
	Location   Location
	// Pin is where the file spells the exact version so that it can be
	// edited in place (go.mod require, requirements ==, package.json exact
	// version); empty when it cannot.
	Pin Span
	// Deps are the Keys of the packages this one requires, when the file
	// records them.
	Deps []string
	// Replaced is set when a go.mod replace directive points the module
	// elsewhere; Name and Version are then the replacement's.
	Replaced bool
}

// Key identifies a package version across files: "npm:lodash@4.17.21".
func (p Package) Key() string { return Key(p.Ecosystem, p.Name, p.Version) }

// Key builds a Package.Key.
func Key(eco Ecosystem, name, version string) string {
	return string(eco) + ":" + name + "@" + version
}

// NormalizePyPI returns a PyPI name as PEP 503 normalises it: lower case,
// runs of "-", "_" and "." replaced by one "-".
func NormalizePyPI(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	sep := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '-' || c == '_' || c == '.' {
			sep = true
			continue
		}
		if sep && b.Len() > 0 {
			b.WriteByte('-')
		}
		sep = false
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// NormalizeName normalises a package name for eco.
func NormalizeName(eco Ecosystem, name string) string {
	if eco == PyPI {
		return NormalizePyPI(name)
	}
	return name
}
