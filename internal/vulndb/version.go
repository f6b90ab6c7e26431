package vulndb

import (
	"fmt"
	"strings"

	"github.com/Masterminds/semver/v3"
	gosemver "golang.org/x/mod/semver"
)

// version is a parsed version of one ecosystem.
type version interface {
	compare(other version) int
}

// scheme parses an ecosystem's versions.
type scheme func(s string) (version, error)

// schemeFor returns the version ordering of an OSV ecosystem; ok is false
// for ecosystems aisbx does not match.
func schemeFor(eco string) (scheme, bool) {
	switch eco {
	case "Go":
		return parseGoVersion, true
	case "npm":
		return parseNPMVersion, true
	case "PyPI":
		return func(s string) (version, error) { return ParsePEP440(s) }, true
	}
	return nil, false
}

// goVersion is a Go module version. OSV writes Go versions without the
// "v" that go.mod uses; golang.org/x/mod/semver is the ordering the go
// command itself applies, pseudo-versions and +incompatible included.
type goVersion string

func parseGoVersion(s string) (version, error) {
	if !strings.HasPrefix(s, "v") {
		s = "v" + s
	}
	if !gosemver.IsValid(s) {
		return nil, fmt.Errorf("%q is not a Go module version", s)
	}
	return goVersion(s), nil
}

func (v goVersion) compare(o version) int { return gosemver.Compare(string(v), string(o.(goVersion))) }

// npmVersion is an npm package version. Masterminds/semver follows SemVer
// 2.0 precedence (pre-releases before the release, build metadata
// ignored) and, like node-semver's loose mode, accepts the "v" and "="
// prefixes found in older package metadata.
type npmVersion struct{ v *semver.Version }

func parseNPMVersion(s string) (version, error) {
	v, err := semver.NewVersion(strings.TrimPrefix(strings.TrimSpace(s), "="))
	if err != nil {
		return nil, fmt.Errorf("%q is not a semantic version: %w", s, err)
	}
	return npmVersion{v}, nil
}

func (v npmVersion) compare(o version) int { return v.v.Compare(o.(npmVersion).v) }

// CompareVersions orders two versions of an OSV ecosystem ("Go", "npm",
// "PyPI").
func CompareVersions(eco, a, b string) (int, error) {
	parse, ok := schemeFor(eco)
	if !ok {
		return 0, fmt.Errorf("vulndb: ecosystem %q is not supported", eco)
	}
	va, err := parse(a)
	if err != nil {
		return 0, err
	}
	vb, err := parse(b)
	if err != nil {
		return 0, err
	}
	return va.compare(vb), nil
}
