package deps

import (
	"context"
	"fmt"
	"strings"

	"github.com/aisbx/aisbx/checks"
	"golang.org/x/mod/modfile"
)

// newDependencies judges the dependencies a manifest gained since git HEAD.
// Outside git (or for a manifest HEAD does not have) every dependency is
// new, and then only look-alikes are reported: listing every dependency of
// an untracked project for review would be noise.
func (c *Check) newDependencies(ctx context.Context, f *checks.File, k manifestKind) ([]checks.Finding, error) {
	entries, err := k.entries(f.Content)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Rel(), err)
	}
	if len(entries) == 0 {
		return nil, nil
	}
	base, tracked := c.git.baseNames(ctx, f.Path, k)
	eco := k.ecosystem()
	pop := popularity(eco)
	var out []checks.Finding
	var online []pending
	seen := map[string]bool{}
	for _, e := range entries {
		name, start, end := e.registryName()
		key := popKey(eco, name)
		if e.local || end <= start || seen[key] {
			continue
		}
		seen[key] = true
		if tracked && base[key] {
			continue
		}
		if c.allowedDep(eco, name) {
			continue
		}
		if t := pop.lookalike(name, c.dist); t != "" {
			msg := fmt.Sprintf("new dependency %q is one edit away from the popular %s package %q and is not popular itself: a typo or a typosquat. Use %q unless you are sure", name, eco, t, t)
			out = append(out, finding(RuleTyposquat, start, end, msg, replaceFix("Replace with "+t, start, end, t)))
			online = append(online, pending{idx: len(out) - 1, eco: eco, name: name})
			continue
		}
		if !tracked || e.indirect || pop.rank(name) > 0 {
			continue
		}
		msg := fmt.Sprintf("new dependency %q is not among the widely used %s packages: review it before installing (who maintains it, how old it is, its downloads and source)", name, eco)
		out = append(out, finding(RuleNewUnknown, start, end, msg))
		online = append(online, pending{idx: len(out) - 1, eco: eco, name: name})
	}
	return out, c.verifyDeps(ctx, out, online)
}

func (c *Check) allowedDep(eco ecosystem, name string) bool {
	if eco == ecoPyPI {
		return c.allow.python(name, name)
	}
	return c.allow.path(name)
}

// goModEntries lists go.mod's requires with the range of each module path.
func goModEntries(data []byte) ([]depEntry, error) {
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return nil, err
	}
	local := map[string]bool{}
	for _, r := range f.Replace {
		if r.New.Version == "" && modfile.IsDirectoryPath(r.New.Path) {
			local[r.Old.Path] = true
		}
	}
	var out []depEntry
	for _, r := range f.Require {
		e := depEntry{name: r.Mod.Path, indirect: r.Indirect, local: local[r.Mod.Path]}
		if r.Syntax != nil {
			lo, hi := r.Syntax.Start.Byte, r.Syntax.End.Byte
			if lo >= 0 && hi <= len(data) && lo <= hi {
				if i := strings.Index(string(data[lo:hi]), r.Mod.Path); i >= 0 {
					e.start, e.end = lo+i, lo+i+len(r.Mod.Path)
				}
			}
		}
		out = append(out, e)
	}
	return out, nil
}
