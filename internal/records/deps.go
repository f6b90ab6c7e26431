package records

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/aisbx/aisbx/internal/ignore"
)

// DependencyReader lists a workspace's dependencies. LockfileReader is the
// simple one; a fuller inventory can replace it behind this interface.
type DependencyReader interface {
	Dependencies(ctx context.Context, root string) ([]Dependency, error)
}

// LockfileReader reads dependencies from the files that pin them:
// go.mod requirements, requirements*.txt pins (name==version) and
// package-lock.json packages. Files under testdata/ are fixtures, not the
// workspace's own dependencies.
type LockfileReader struct {
	// Ignore are extra gitignore-style patterns of files not to read.
	Ignore []string
}

var _ DependencyReader = LockfileReader{}

// Dependencies reads every pinning file of the workspace, sorted and
// without duplicates. A file that does not parse is reported in the error
// after the others are read.
func (l LockfileReader) Dependencies(ctx context.Context, root string) ([]Dependency, error) {
	files, err := ignore.Files(ctx, root, l.Ignore...)
	if err != nil {
		return nil, fmt.Errorf("listing files of %s: %w", root, err)
	}
	var deps []Dependency
	var errs []string
	for _, f := range files {
		if strings.HasPrefix(f, "testdata/") || strings.Contains(f, "/testdata/") {
			continue
		}
		base := path.Base(f)
		var read func([]byte, string) ([]Dependency, error)
		switch {
		case base == "go.mod":
			read = goModDeps
		case base == "package-lock.json" || base == "npm-shrinkwrap.json":
			read = npmLockDeps
		case strings.HasPrefix(base, "requirements") && strings.HasSuffix(base, ".txt"):
			read = requirementsDeps
		default:
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		d, err := read(data, f)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", f, err))
		}
		deps = append(deps, d...)
	}
	deps = dedupe(deps)
	if len(errs) > 0 {
		return deps, fmt.Errorf("reading dependencies: %s", strings.Join(errs, "; "))
	}
	return deps, nil
}

func goModDeps(data []byte, source string) ([]Dependency, error) {
	mf, err := modfile.ParseLax(source, data, nil)
	if err != nil {
		return nil, err
	}
	var out []Dependency
	for _, r := range mf.Require {
		out = append(out, Dependency{Ecosystem: "go", Name: r.Mod.Path, Version: r.Mod.Version, Source: source})
	}
	return out, nil
}

// A pin: name, optional extras, ==, version, optional marker or comment.
var pyNameSeparators = regexp.MustCompile(`[-_.]+`)

var requirementPin = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*===?\s*([^\s;#,]+)`)

func requirementsDeps(data []byte, source string) ([]Dependency, error) {
	var out []Dependency
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if m := requirementPin.FindStringSubmatch(line); m != nil {
			out = append(out, Dependency{Ecosystem: "pypi", Name: normalizePyName(m[1]), Version: m[2], Source: source})
		}
	}
	return out, sc.Err()
}

// normalizePyName applies PEP 503: case and runs of -_. do not matter.
func normalizePyName(n string) string {
	return strings.ToLower(pyNameSeparators.ReplaceAllString(n, "-"))
}

func npmLockDeps(data []byte, source string) ([]Dependency, error) {
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
			Link    bool   `json:"link"`
			Name    string `json:"name"`
		} `json:"packages"`
		Dependencies map[string]npmV1Dep `json:"dependencies"`
	}
	if err := json.Unmarshal(data, &lock); err != nil {
		return nil, err
	}
	var out []Dependency
	if len(lock.Packages) > 0 { // lockfile v2 and v3
		for key, p := range lock.Packages {
			i := strings.LastIndex(key, "node_modules/")
			if key == "" || i < 0 || p.Link || p.Version == "" {
				continue
			}
			name := p.Name
			if name == "" {
				name = key[i+len("node_modules/"):]
			}
			out = append(out, Dependency{Ecosystem: "npm", Name: name, Version: p.Version, Source: source})
		}
		return out, nil
	}
	var walk func(map[string]npmV1Dep)
	walk = func(deps map[string]npmV1Dep) {
		for name, d := range deps {
			if d.Version != "" {
				out = append(out, Dependency{Ecosystem: "npm", Name: name, Version: d.Version, Source: source})
			}
			walk(d.Dependencies)
		}
	}
	walk(lock.Dependencies)
	return out, nil
}

type npmV1Dep struct {
	Version      string              `json:"version"`
	Dependencies map[string]npmV1Dep `json:"dependencies"`
}

func dedupe(deps []Dependency) []Dependency {
	sort.Slice(deps, func(i, j int) bool {
		a, b := deps[i], deps[j]
		if a.Ecosystem != b.Ecosystem {
			return a.Ecosystem < b.Ecosystem
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Source < b.Source
	})
	out := deps[:0]
	for i, d := range deps {
		if i > 0 {
			p := out[len(out)-1]
			if p.Ecosystem == d.Ecosystem && p.Name == d.Name && p.Version == d.Version {
				continue
			}
		}
		out = append(out, d)
	}
	return out
}
