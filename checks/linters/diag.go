package linters

import (
	"path/filepath"
	"sort"

	"github.com/aisbx/aisbx/checks"
)

// diag is one tool diagnostic as the tool reported it, before it is tied to
// a file's content. Package-level tools cache diags for a whole directory.
type diag struct {
	File     string // absolute, cleaned; "" for a stdin run (the file asked about)
	Start    loc
	End      loc
	Rule     string // prefixed: "ruff/F401"
	Message  string
	DocURL   string
	Severity checks.Severity
	Fixes    []rawFix
}

// rawFix is a tool's suggested fix in the tool's own coordinates.
type rawFix struct {
	Title     string
	Preferred bool
	Edits     []rawEdit
}

// rawEdit replaces a range with Text. A range is given either as positions
// (From, To) or, when Abs is set, as offsets from the start of the text in
// the tool's unit (FromOff, ToOff).
type rawEdit struct {
	From, To       loc
	Abs            bool
	FromOff, ToOff int
	Text           string
}

// toFindings ties diags to f: it keeps those about f and converts their
// positions with the tool's column unit.
func toFindings(t *tool, f *checks.File, ds []diag) []checks.Finding {
	if len(ds) == 0 {
		return nil
	}
	l := newLocator(f.Content)
	same := pathMatcher(f.Path)
	var out []checks.Finding
	for _, d := range ds {
		if d.File != "" && !same(d.File) {
			continue
		}
		start, end := l.span(d.Start, d.End, t.unit)
		fd := checks.Finding{
			Rule:     d.Rule,
			Category: checks.CategoryLint,
			Severity: d.Severity,
			Message:  d.Message,
			Start:    start,
			End:      end,
			DocURL:   d.DocURL,
			Tool:     t.name,
		}
		if fd.Severity == 0 {
			fd.Severity = checks.SeverityWarning
		}
		for _, rf := range d.Fixes {
			if fix, ok := convertFix(l, t.unit, rf); ok {
				fd.Fixes = append(fd.Fixes, fix)
			}
		}
		out = append(out, fd)
	}
	sortFindings(out)
	return out
}

// sortFindings orders findings by position then rule, so output does not
// depend on the order tools (or Go maps) produced them.
func sortFindings(fs []checks.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Start != fs[j].Start {
			return fs[i].Start < fs[j].Start
		}
		return fs[i].Rule < fs[j].Rule
	})
}

func convertFix(l *locator, u unit, rf rawFix) (checks.Fix, bool) {
	fix := checks.Fix{Title: rf.Title, Preferred: rf.Preferred}
	for _, e := range rf.Edits {
		var s, end int
		if e.Abs {
			s, end = l.absOffset(e.FromOff, u), l.absOffset(e.ToOff, u)
		} else {
			s, end = l.offset(e.From, u), l.offset(e.To, u)
		}
		if end < s {
			return checks.Fix{}, false
		}
		fix.Edits = append(fix.Edits, checks.Edit{Start: s, End: end, NewText: e.Text})
	}
	if len(fix.Edits) == 0 {
		return checks.Fix{}, false
	}
	if fix.Title == "" {
		fix.Title = "Apply the suggested fix"
	}
	return fix, true
}

// pathMatcher returns a test for "is this path the file", looking through
// symlinks only when paths differ as written (tools often print resolved
// paths, editors the ones the user opened).
func pathMatcher(path string) func(string) bool {
	path = filepath.Clean(path)
	real := ""
	resolved := map[string]string{}
	resolve := func(p string) string {
		if r, ok := resolved[p]; ok {
			return r
		}
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			r = p
		}
		resolved[p] = r
		return r
	}
	return func(p string) bool {
		if p == path {
			return true
		}
		if filepath.Base(p) != filepath.Base(path) {
			return false // a symlinked file keeps its name in practice; skip the syscalls
		}
		if real == "" {
			real = resolve(path)
		}
		return resolve(p) == real
	}
}
