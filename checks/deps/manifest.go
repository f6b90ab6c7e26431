package deps

import (
	"path/filepath"
	"strings"
)

// depEntry is one dependency named in a manifest, with the byte range of
// its name.
type depEntry struct {
	name       string
	start, end int
	// local marks entries that are not registry packages (paths, URLs,
	// workspace links); they are never judged.
	local bool
	// indirect marks go.mod requires added for other modules' sake.
	indirect bool
	// regName is the registry package when it differs from name: an npm
	// alias ("lodash": "npm:lodahs@1") installs lodahs under lodash.
	regName          string
	regStart, regEnd int
}

// registryName returns the name to judge and its range.
func (e depEntry) registryName() (string, int, int) {
	if e.regName != "" {
		if e.regEnd > e.regStart {
			return e.regName, e.regStart, e.regEnd
		}
		return e.regName, e.start, e.end
	}
	return e.name, e.start, e.end
}

type manifestKind int

const (
	manifestNone manifestKind = iota
	manifestGoMod
	manifestRequirements
	manifestPyproject
	manifestPipfile
	manifestPackageJSON
)

// manifestKindOf tells which manifest a path is, by name. Manifests of
// installed packages (node_modules, site-packages) are not the user's.
func manifestKindOf(path string) manifestKind {
	if installedCode(path) {
		return manifestNone
	}
	base := filepath.Base(path)
	switch {
	case base == "go.mod":
		return manifestGoMod
	case base == "pyproject.toml":
		return manifestPyproject
	case base == "Pipfile":
		return manifestPipfile
	case base == "package.json":
		return manifestPackageJSON
	case isRequirementsName(base) && strings.HasSuffix(base, ".txt"),
		filepath.Base(filepath.Dir(path)) == "requirements" && strings.HasSuffix(base, ".txt"):
		return manifestRequirements
	}
	return manifestNone
}

func (k manifestKind) ecosystem() ecosystem {
	switch k {
	case manifestGoMod:
		return ecoGo
	case manifestPackageJSON:
		return ecoNPM
	}
	return ecoPyPI
}

// entries parses a manifest of kind k.
func (k manifestKind) entries(data []byte) ([]depEntry, error) {
	switch k {
	case manifestGoMod:
		return goModEntries(data)
	case manifestRequirements:
		return parseRequirements(data).entries, nil
	case manifestPyproject:
		pp, err := parsePyproject(data)
		return pp.deps, err
	case manifestPipfile:
		return parsePipfile(data)
	case manifestPackageJSON:
		pj, err := parsePackageJSON(data)
		if err != nil {
			return nil, err
		}
		return pj.entries, nil
	}
	return nil, nil
}
