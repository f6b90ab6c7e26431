package testsel

import (
	"context"
	"fmt"
	"path"
	"strings"
)

// forFiles selects the tests of the given files. A test file runs its own
// tests: a Python or JS file as a whole, a Go file by name (-run) in its
// package. Any other file runs the tests it affects.
func (s *Selector) forFiles(ctx context.Context, w *workspace, units map[projKey][]unit, files []string, sel *Selection) (map[projKey]*Plan, error) {
	plans := map[projKey]*Plan{}
	var sources []string
	for _, f := range files {
		if !IsTestFile(f) || isFixturePath(f) {
			sources = append(sources, f)
			continue
		}
		k, u, ok := w.unitOf(f)
		if !ok {
			return nil, fmt.Errorf("%s is not part of a project aisbx can run", f)
		}
		item := Item{Lang: k.lang, Unit: u.name, Reason: "tests of " + f + " (requested)"}
		if k.lang != LangGo {
			addUnit(plans, k, u, item)
			continue
		}
		src, err := w.read(f)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", f, err)
		}
		tests, err := Discover(f, src)
		if err != nil {
			return nil, err
		}
		p := addUnit(plans, k, u, item)
		for _, t := range tests {
			// A file's top-level tests; benchmarks only run when asked for.
			if len(t.Path) == 1 && t.Kind != KindBenchmark {
				p.Tests = append(p.Tests, PlanTest{Unit: planUnit(k, u), Path: t.Path, Kind: t.Kind})
			}
		}
	}
	if len(sources) > 0 {
		more, err := s.affected(ctx, w, units, sources, sel)
		if err != nil {
			return nil, err
		}
		mergePlans(plans, more)
	}
	return plans, nil
}

// mergePlans adds src's plans to dst. A unit selected whole in src stops
// being restricted to named tests in dst.
func mergePlans(dst, src map[projKey]*Plan) {
	for k, p := range src {
		d := dst[k]
		if d == nil {
			dst[k] = p
			continue
		}
		if p.All {
			dst[k] = p
			continue
		}
		for i, u := range p.Units {
			if !contains(d.Units, u) {
				d.Units = append(d.Units, u)
				d.Items = append(d.Items, p.Items[i])
			}
			kept := d.Tests[:0]
			for _, t := range d.Tests {
				if t.Unit != u {
					kept = append(kept, t)
				}
			}
			d.Tests = kept
		}
	}
}

// forTests selects named tests: run this test, or re-run the failed ones.
func (s *Selector) forTests(w *workspace, units map[projKey][]unit, refs []TestRef, mode Mode) (map[projKey]*Plan, error) {
	plans := map[projKey]*Plan{}
	why := "requested"
	if mode == ModeFailed {
		why = "failed in the last run"
	}
	for _, r := range refs {
		if len(r.Path) == 0 {
			return nil, fmt.Errorf("test reference %+v has no name", r)
		}
		var k projKey
		var u unit
		var ok bool
		switch {
		case r.Package != "":
			k, u, ok = w.goUnitByImportPath(r.Package)
		case r.File != "":
			f := path.Clean(r.File)
			if _, isSource := LangOf(f); isSource && !w.exists[f] {
				return nil, fmt.Errorf("test %s: no file %s in the workspace", strings.Join(r.Path, "/"), f)
			}
			k, u, ok = w.unitOf(f)
		}
		if !ok {
			return nil, fmt.Errorf("cannot find the package or file of test %s (%s%s)", strings.Join(r.Path, "/"), r.File, r.Package)
		}
		name := strings.Join(r.Path, "/")
		if k.lang == LangPython {
			name = strings.Join(r.Path, "::")
		} else if k.lang == LangJS {
			name = strings.Join(r.Path, " > ")
		}
		p := addUnit(plans, k, u, Item{Lang: k.lang, Unit: u.name, Reason: why})
		p.Tests = append(p.Tests, PlanTest{Unit: planUnit(k, u), Path: r.Path, Kind: r.Kind})
		for i := range p.Items {
			if p.Items[i].Unit == u.name && !strings.Contains(p.Items[i].Reason, name) {
				p.Items[i].Reason = appendName(p.Items[i].Reason, name, why)
			}
		}
	}
	return plans, nil
}

// appendName grows "requested" into "TestA, TestB (requested)".
func appendName(reason, name, why string) string {
	if reason == why {
		return name + " (" + why + ")"
	}
	return strings.TrimSuffix(reason, " ("+why+")") + ", " + name + " (" + why + ")"
}

// unitOf returns the project and test unit a file belongs to: for Go, its
// package (a directory may be given too).
func (w *workspace) unitOf(f string) (projKey, unit, bool) {
	if lang, ok := LangOf(f); ok && lang != LangGo {
		if lang == LangPython {
			return projKey{LangPython, projectOf(w.pyProjects, f)}, unit{rel: f, name: f}, true
		}
		return projKey{LangJS, projectOf(w.jsProjects, f)}, unit{rel: f, name: f}, true
	}
	dir := f
	if strings.HasSuffix(f, ".go") {
		dir = path.Dir(f)
	}
	m, ok := w.goModuleOf(dir)
	if !ok || goSkippedDir(relTo(dir, m.Dir)) {
		return projKey{}, unit{}, false
	}
	return projKey{LangGo, m.Dir}, unit{rel: dir, name: goImportPath(m, dir)}, true
}

func (w *workspace) goUnitByImportPath(ip string) (projKey, unit, bool) {
	for _, m := range w.goModules { // deepest first: the longest module path wins
		var rel string
		switch {
		case ip == m.Path:
			rel = "."
		case m.Path == "":
			if strings.Contains(strings.SplitN(ip, "/", 2)[0], ".") {
				continue // not a standard-library path
			}
			rel = ip
		case strings.HasPrefix(ip, m.Path+"/"):
			rel = strings.TrimPrefix(ip, m.Path+"/")
		default:
			continue
		}
		dir := path.Join(m.Dir, rel)
		return projKey{LangGo, m.Dir}, unit{rel: dir, name: ip}, true
	}
	return projKey{}, unit{}, false
}
