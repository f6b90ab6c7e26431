package testsel

import (
	"fmt"
	"sort"
	"strings"
)

// Mode says why a set of tests was chosen.
type Mode string

const (
	ModeAffected Mode = "affected" // the tests a change can break
	ModeAll      Mode = "all"      // every test
	ModeFile     Mode = "file"     // the tests of given files
	ModeTest     Mode = "test"     // given tests (run this test)
	ModeFailed   Mode = "failed"   // the tests that failed last time
)

// Selection is the outcome of Select: one Plan per project that has tests
// to run, and the account of what was chosen and why.
type Selection struct {
	Mode    Mode     `json:"mode"`
	Changed []string `json:"changed,omitempty"`
	Plans   []Plan   `json:"plans"`
	// Fallback is set when a change could not be mapped to tests, so whole
	// suites run; it says which change and why.
	Fallback string `json:"fallback,omitempty"`
	// Ignored are changed files no test reads (documentation and the like).
	Ignored []string `json:"ignored,omitempty"`
	// Selected and Total count test units (Go packages, Python and JS test
	// files) over all projects; a whole-suite plan counts all its units.
	Selected int `json:"selected"`
	Total    int `json:"total"`
}

// Plan is what to run in one project: a Go module, a Python project or a JS
// package. testresults turns it into a command.
type Plan struct {
	Lang Lang   `json:"lang"`
	Dir  string `json:"dir"` // project directory, workspace-relative; "." for the root
	// All runs the project's whole suite; Units and Tests are then empty.
	All bool `json:"all,omitempty"`
	// Units are relative to Dir: Go package patterns ("./pkg/a", "."),
	// Python and JS test files.
	Units []string `json:"units,omitempty"`
	// Tests, when set, restrict the run to these tests of the Units.
	Tests    []PlanTest `json:"tests,omitempty"`
	Items    []Item     `json:"items"`
	Fallback string     `json:"fallback,omitempty"`
	Total    int        `json:"total"` // test units in the project
}

// PlanTest is one test to run by name: its unit (as in Plan.Units) and name
// path from the outermost container down.
type PlanTest struct {
	Unit string   `json:"unit"`
	Path []string `json:"path"`
	Kind Kind     `json:"kind,omitempty"`
}

// Item explains why one unit was selected.
type Item struct {
	Lang Lang   `json:"lang"`
	Unit string `json:"unit"` // Go import path; Python/JS workspace-relative test file; "*" for a whole suite
	// Reason reads as "<unit>: <reason>", e.g. "imports example.com/m/b (changed)".
	Reason string `json:"reason"`
	// Chain is the shortest dependency path from the unit to a change,
	// unit first.
	Chain []string `json:"chain,omitempty"`
}

// String is the item as one line: "unit: reason".
func (it Item) String() string { return it.Unit + ": " + it.Reason }

// Empty reports that nothing is to run.
func (s *Selection) Empty() bool { return len(s.Plans) == 0 }

// Items returns every plan's items.
func (s *Selection) Items() []Item {
	var out []Item
	for _, p := range s.Plans {
		out = append(out, p.Items...)
	}
	return out
}

// LeftOut is the number of test units not selected.
func (s *Selection) LeftOut() int { return s.Total - s.Selected }

// Summary is a one-line account, e.g. "3 of 12 test units (fallback: go.mod
// changed)".
func (s *Selection) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of %d test units selected", s.Mode, s.Selected, s.Total)
	if s.Fallback != "" {
		fmt.Fprintf(&b, "; whole suite: %s", s.Fallback)
	}
	if len(s.Ignored) > 0 {
		fmt.Fprintf(&b, "; %d changed files not read by tests", len(s.Ignored))
	}
	return b.String()
}

// Explain is a multi-line account of every plan: why each unit runs and
// how many were left out.
func (s *Selection) Explain() string {
	var b strings.Builder
	b.WriteString(s.Summary())
	b.WriteByte('\n')
	for _, p := range s.Plans {
		fmt.Fprintf(&b, "%s %s: ", langTitle(p.Lang), p.Dir)
		if p.All {
			fmt.Fprintf(&b, "whole suite (%s): %s\n", plural(p.Total, "unit"), p.Fallback)
			continue
		}
		fmt.Fprintf(&b, "%d of %d units\n", len(p.Units), p.Total)
		for _, it := range p.Items {
			fmt.Fprintf(&b, "  %s\n", it)
		}
		if n := p.Total - len(p.Units); n > 0 {
			fmt.Fprintf(&b, "  left out: %s\n", plural(n, "unit"))
		}
	}
	if len(s.Ignored) > 0 {
		fmt.Fprintf(&b, "not read by tests: %s\n", strings.Join(s.Ignored, ", "))
	}
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func langTitle(l Lang) string {
	switch l {
	case LangGo:
		return "Go module"
	case LangPython:
		return "Python project"
	}
	return "JS package"
}

func sortPlans(plans []Plan) {
	order := map[Lang]int{LangGo: 0, LangPython: 1, LangJS: 2}
	sort.Slice(plans, func(i, j int) bool {
		if plans[i].Lang != plans[j].Lang {
			return order[plans[i].Lang] < order[plans[j].Lang]
		}
		return plans[i].Dir < plans[j].Dir
	})
}
