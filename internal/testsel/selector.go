package testsel

import (
	"context"
	"fmt"
	"path"
	"runtime"
	"sort"
	"strings"
)

// Options configure a Selector.
type Options struct {
	// Ignore are extra gitignore-style patterns of files selection never
	// looks at (aisbx.toml [tests] ignore).
	Ignore []string
	// Inert are patterns of changed files no test reads; nil means
	// DefaultInert. See DefaultInert for the syntax.
	Inert []string
	// GOOS and GOARCH are the sandbox's platform, for Go build
	// constraints; empty means linux and the host's architecture.
	GOOS, GOARCH string
}

// Selector chooses the tests to run in one workspace. It caches parsed
// imports between calls (per file for Python and JS, per package directory
// for Go, while names, sizes and mtimes hold), so it should live as long as
// the workspace is open. It is safe for concurrent use.
type Selector struct {
	root string
	opts Options

	goDirs  goDirCache
	imports importCache
}

// New returns a Selector for the workspace at root.
func New(root string, opts Options) *Selector {
	if opts.Inert == nil {
		opts.Inert = DefaultInert
	}
	if opts.GOOS == "" {
		opts.GOOS = "linux"
	}
	if opts.GOARCH == "" {
		opts.GOARCH = runtime.GOARCH
	}
	return &Selector{root: root, opts: opts}
}

// Request says what to select.
type Request struct {
	Mode Mode // default ModeAffected
	// Changed are the changed files for ModeAffected, workspace-relative:
	// an editor's edits since the last green run, ChangedSince's output, an
	// agent's edit set. Deleted files may be named.
	Changed []string
	// Files are the files whose tests ModeFile runs. A file that is not a
	// test file runs the tests it affects.
	Files []string
	// Tests are the tests ModeTest and ModeFailed run.
	Tests []TestRef
	// Overlay holds unsaved editor buffers by workspace-relative path; they
	// are read instead of the disk.
	Overlay map[string][]byte
}

// Select chooses the tests for req.
func (s *Selector) Select(ctx context.Context, req Request) (*Selection, error) {
	if req.Mode == "" {
		req.Mode = ModeAffected
	}
	changed, err := cleanPaths(req.Changed)
	if err != nil {
		return nil, err
	}
	files, err := cleanPaths(req.Files)
	if err != nil {
		return nil, err
	}
	w, err := loadWorkspace(ctx, s.root, s.opts.Ignore, append(changed, files...), req.Overlay)
	if err != nil {
		return nil, err
	}
	units := w.testUnits()
	var plans map[projKey]*Plan
	sel := &Selection{Mode: req.Mode, Changed: changed}
	switch req.Mode {
	case ModeAffected:
		plans, err = s.affected(ctx, w, units, changed, sel)
	case ModeAll:
		plans = map[projKey]*Plan{}
		for k := range units {
			plans[k] = &Plan{All: true, Fallback: "all tests requested"}
		}
	case ModeFile:
		plans, err = s.forFiles(ctx, w, units, files, sel)
	case ModeTest, ModeFailed:
		plans, err = s.forTests(w, units, req.Tests, req.Mode)
	default:
		return nil, fmt.Errorf("unknown selection mode %q", req.Mode)
	}
	if err != nil {
		return nil, err
	}
	for k, us := range units {
		sel.Total += len(us)
		p, ok := plans[k]
		if !ok {
			continue
		}
		p.Lang, p.Dir, p.Total = k.lang, k.dir, len(us)
		if p.All {
			p.Units, p.Tests = nil, nil
			p.Items = []Item{{Lang: k.lang, Unit: "*", Reason: p.Fallback}}
			sel.Selected += len(us)
		} else {
			sort.Strings(p.Units)
			sort.Slice(p.Items, func(i, j int) bool { return p.Items[i].Unit < p.Items[j].Unit })
			sel.Selected += len(p.Units)
		}
		sel.Plans = append(sel.Plans, *p)
	}
	sortPlans(sel.Plans)
	return sel, nil
}

// cleanPaths normalizes workspace-relative paths and refuses paths that
// leave the workspace.
func cleanPaths(in []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, p := range in {
		c := path.Clean(strings.ReplaceAll(p, `\`, "/"))
		if c == "." || path.IsAbs(c) || c == ".." || strings.HasPrefix(c, "../") {
			return nil, fmt.Errorf("path %q is not inside the workspace", p)
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out, nil
}

// projKey identifies a project: a Go module, Python project or JS package.
type projKey struct {
	lang Lang
	dir  string
}

// unit is one runnable test unit: a Go package directory or a test file.
type unit struct {
	rel  string // workspace-relative directory (Go) or file
	name string // Go import path; otherwise rel
}

// testUnits lists each project's test units without parsing anything: Go
// directories with _test.go files, Python and JS test files.
func (w *workspace) testUnits() map[projKey][]unit {
	out := map[projKey][]unit{}
	seenDir := map[string]bool{}
	for _, f := range w.files {
		if isFixturePath(f) || !IsTestFile(f) {
			continue
		}
		lang, _ := LangOf(f)
		switch lang {
		case LangGo:
			dir := path.Dir(f)
			m, ok := w.goModuleOf(dir)
			if !ok || seenDir[dir] || goSkippedDir(relTo(dir, m.Dir)) {
				continue
			}
			seenDir[dir] = true
			k := projKey{LangGo, m.Dir}
			out[k] = append(out[k], unit{rel: dir, name: goImportPath(m, dir)})
		case LangPython:
			k := projKey{LangPython, projectOf(w.pyProjects, f)}
			out[k] = append(out[k], unit{rel: f, name: f})
		case LangJS:
			k := projKey{LangJS, projectOf(w.jsProjects, f)}
			out[k] = append(out[k], unit{rel: f, name: f})
		}
	}
	return out
}

// planUnit is how a unit appears in its project's plan: "./dir" for Go
// packages, the file relative to the project otherwise.
func planUnit(k projKey, u unit) string {
	rel := relTo(u.rel, k.dir)
	if k.lang == LangGo && rel != "." {
		return "./" + rel
	}
	return rel
}

func addUnit(plans map[projKey]*Plan, k projKey, u unit, item Item) *Plan {
	p := plans[k]
	if p == nil {
		p = &Plan{}
		plans[k] = p
	}
	pu := planUnit(k, u)
	if !contains(p.Units, pu) {
		p.Units = append(p.Units, pu)
		p.Items = append(p.Items, item)
	}
	return p
}
