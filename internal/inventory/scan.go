package inventory

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"

	"golang.org/x/mod/semver"

	"github.com/aisbx/aisbx/internal/ignore"
)

// Inventory is every manifest and lockfile of a workspace.
type Inventory struct {
	Root    string
	Sources []*Source // sorted by path
	// Errors are the files that could not be read or parsed; the others
	// are still listed.
	Errors []error
}

// maxManifestSize bounds what Scan reads: a generated lockfile can be
// large, but not this large.
const maxManifestSize = 64 << 20

// Scan reads every manifest and lockfile below root that .gitignore does
// not exclude (node_modules, vendor and virtualenvs are always skipped).
// Paths in the result are slash-separated and relative to root.
func Scan(ctx context.Context, root string) (*Inventory, error) {
	files, err := ignore.Files(ctx, root)
	if err != nil {
		return nil, fmt.Errorf("inventory: listing %s: %w", root, err)
	}
	inv := &Inventory{Root: root}
	for _, rel := range files {
		if _, ok := KindOf(rel); !ok {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		abs := filepath.Join(root, filepath.FromSlash(rel))
		content, err := readLimited(abs)
		if err != nil {
			inv.Errors = append(inv.Errors, fmt.Errorf("inventory: %w", err))
			continue
		}
		dir := filepath.Dir(abs)
		src, err := Parse(rel, content, func(name string) ([]byte, error) {
			return readLimited(filepath.Join(dir, name))
		})
		if err != nil {
			inv.Errors = append(inv.Errors, err)
			continue
		}
		inv.Sources = append(inv.Sources, src)
	}
	sort.Slice(inv.Sources, func(i, j int) bool { return inv.Sources[i].Path < inv.Sources[j].Path })
	return inv, nil
}

func readLimited(p string) ([]byte, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxManifestSize {
		return nil, fmt.Errorf("%s: %d bytes is more than the %d a manifest may have", p, fi.Size(), maxManifestSize)
	}
	return os.ReadFile(p)
}

// Packages is the workspace's effective dependency set: in each directory
// a lockfile stands for its ecosystem and the manifest beside it only says
// which packages are direct, so the manifest's own entries are dropped;
// go.sum counts only where go.mod predates Go 1.17's complete module
// lists. The result is deduplicated by Key, keeping the first declaration,
// and sorted by ecosystem, name and version.
func (inv *Inventory) Packages() []Package {
	type dirEco struct {
		dir string
		eco Ecosystem
	}
	locked := map[dirEco]bool{}
	completeGoMod := map[string]bool{}
	for _, s := range inv.Sources {
		if s.Kind.Resolves() && s.Kind != KindGoSum {
			locked[dirEco{path.Dir(s.Path), s.Kind.Ecosystem()}] = true
		}
		if s.Kind == KindGoMod && goModComplete(s) {
			completeGoMod[path.Dir(s.Path)] = true
		}
	}
	// Lockfiles first, so that their declaration wins over a manifest's.
	ordered := append([]*Source(nil), inv.Sources...)
	sort.SliceStable(ordered, func(i, j int) bool {
		return ordered[i].Kind.Resolves() && !ordered[j].Kind.Resolves()
	})
	seen := map[string]bool{}
	named := map[string]bool{} // eco:name with a version somewhere
	var out []Package
	for _, s := range ordered {
		dir := path.Dir(s.Path)
		switch {
		case !s.Kind.Resolves() && s.Kind != KindRequirements && locked[dirEco{dir, s.Kind.Ecosystem()}]:
			continue
		case s.Kind == KindGoSum && completeGoMod[dir]:
			continue
		}
		for _, p := range s.Packages {
			if p.Version == "" && p.Replaced {
				continue // replaced by a local directory
			}
			k := p.Key()
			if seen[k] {
				continue
			}
			seen[k] = true
			if p.Version != "" {
				named[string(p.Ecosystem)+":"+p.Name] = true
			}
			out = append(out, p)
		}
	}
	// A bare constraint adds nothing when a version of the package is known.
	kept := out[:0]
	for _, p := range out {
		if p.Version == "" && named[string(p.Ecosystem)+":"+p.Name] {
			continue
		}
		kept = append(kept, p)
	}
	sort.SliceStable(kept, func(i, j int) bool {
		a, b := kept[i], kept[j]
		if a.Ecosystem != b.Ecosystem {
			return a.Ecosystem < b.Ecosystem
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Version < b.Version
	})
	return kept
}

// goModComplete reports whether a go.mod lists the full build list, which
// it does from go 1.17 on.
func goModComplete(s *Source) bool {
	if s.GoVersion == "" {
		return true
	}
	v := GoReleaseSemver(s.GoVersion)
	return v == "" || semver.Compare(v, "v1.17.0") >= 0
}
