package vulns

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/gitx"
	"github.com/aisbx/aisbx/internal/ignore"
	"github.com/aisbx/aisbx/internal/inventory"
)

// PathFinding is a finding and the slash-separated path, relative to the
// workspace root, of the file it is in.
type PathFinding struct {
	Path    string
	Finding checks.Finding
}

// Baseline is the set of vulnerabilities a workspace had at a revision,
// keyed by directory, advisory and package, so that moving a dependency
// between lines, or to another vulnerable version of the same advisory,
// introduces nothing.
type Baseline struct {
	Rev  string
	keys map[string]bool
}

func baselineKey(relPath string, f checks.Finding) string {
	return path.Dir(relPath) + "|" + f.Fingerprint
}

// Has reports whether a finding of this check, in the file at relPath,
// was already present at the baseline's revision.
func (b *Baseline) Has(relPath string, f checks.Finding) bool {
	return b.keys[baselineKey(filepath.ToSlash(relPath), f)]
}

// Len is the number of vulnerabilities at the revision.
func (b *Baseline) Len() int { return len(b.keys) }

// BaselineAt reads the manifests and lockfiles under root as they were at
// git revision rev (`git show REV:path`) and returns the vulnerabilities
// they had. Reachability is not applied: a baseline needs to know which
// vulnerabilities existed, not how severe they were.
func (c *Check) BaselineAt(ctx context.Context, root, rev string) (*Baseline, error) {
	out, err := gitx.Output(ctx, root, "ls-tree", "-r", "-z", "--name-only", rev)
	if err != nil {
		return nil, fmt.Errorf("vulns: listing files at %s: %w", rev, err)
	}
	present := map[string]bool{}
	var manifests []string
	for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if p == "" {
			continue
		}
		present[p] = true
		if _, ok := inventory.KindOf(p); ok && !underSkipped(p) {
			manifests = append(manifests, p)
		}
	}
	show := func(p string) ([]byte, error) {
		return gitx.Output(ctx, root, "show", rev+":./"+p)
	}
	b := &Baseline{Rev: rev, keys: map[string]bool{}}
	for _, p := range manifests {
		content, err := show(p)
		if err != nil {
			return nil, fmt.Errorf("vulns: reading %s at %s: %w", p, rev, err)
		}
		dir := path.Dir(p)
		fs, err := c.run(ctx, fileInput{
			path:    p,
			content: content,
			sibling: func(name string) ([]byte, error) { return show(path.Join(dir, name)) },
			exists:  func(name string) bool { return present[path.Join(dir, name)] },
		})
		if err != nil {
			// A manifest that did not parse then cannot have carried a
			// vulnerability we could name.
			continue
		}
		for _, f := range fs {
			b.keys[baselineKey(p, f)] = true
		}
	}
	return b, nil
}

// Introduced returns the vulnerabilities of the workspace's manifests and
// lockfiles on disk that were not present at git revision rev: what a
// change adds. `aisbxd check --changed --since REV` reports these instead
// of every known vulnerability.
func (c *Check) Introduced(ctx context.Context, root, rev string) ([]PathFinding, error) {
	base, err := c.BaselineAt(ctx, root, rev)
	if err != nil {
		return nil, err
	}
	all, err := c.Scan(ctx, root)
	if err != nil {
		return nil, err
	}
	var out []PathFinding
	for _, pf := range all {
		if !base.Has(pf.Path, pf.Finding) {
			out = append(out, pf)
		}
	}
	return out, nil
}

// Scan runs the check on every manifest and lockfile under root that
// .gitignore does not exclude, as `aisbxd vulndb scan` and the baseline
// comparison need.
func (c *Check) Scan(ctx context.Context, root string) ([]PathFinding, error) {
	files, err := ignore.Files(ctx, root)
	if err != nil {
		return nil, fmt.Errorf("vulns: listing %s: %w", root, err)
	}
	var out []PathFinding
	for _, rel := range files {
		if _, ok := inventory.KindOf(rel); !ok {
			continue
		}
		abs := filepath.Join(root, filepath.FromSlash(rel))
		content, err := os.ReadFile(abs)
		if err != nil {
			return nil, fmt.Errorf("vulns: %w", err)
		}
		f := checks.NewFile(root, abs, content)
		if !c.Applies(f) {
			continue
		}
		fs, err := c.Run(ctx, f)
		if err != nil {
			return nil, fmt.Errorf("vulns: %s: %w", rel, err)
		}
		for _, fd := range fs {
			out = append(out, PathFinding{Path: rel, Finding: fd})
		}
	}
	return out, nil
}

// underSkipped reports paths inside directories aisbx never scans
// (node_modules, vendor), which ls-tree still lists when they are
// committed.
func underSkipped(p string) bool {
	for _, elem := range strings.Split(path.Dir(p), "/") {
		if ignore.AlwaysSkipped[elem] {
			return true
		}
	}
	return false
}
