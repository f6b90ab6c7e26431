package records

import (
	"github.com/aisbx/aisbx/internal/testresults"
	"github.com/aisbx/aisbx/internal/testsel"
)

// FromSelection is the record's account of a test selection.
func FromSelection(sel *testsel.Selection) Selection {
	if sel == nil {
		return Selection{}
	}
	out := Selection{Mode: string(sel.Mode), Fallback: sel.Fallback, Selected: sel.Selected, Total: sel.Total}
	for _, it := range sel.Items() {
		out.Items = append(out.Items, SelectionItem{Lang: string(it.Lang), Unit: it.Unit, Reason: it.Reason, Chain: it.Chain})
	}
	return out
}

// FromSummary is the record's account of parsed test results.
func FromSummary(s *testresults.Summary) ([]Test, Summary) {
	if s == nil {
		return nil, Summary{}
	}
	tests := make([]Test, 0, len(s.Results))
	for _, r := range s.Results {
		t := Test{
			Name: r.Name, Package: r.Package, File: r.File, Kind: string(r.Kind), Status: string(r.Status),
			DurationMS: float64(r.Duration.Microseconds()) / 1000, Message: r.Message, Output: r.Output,
		}
		if r.Location != nil && !r.Location.External {
			t.Location = &Location{File: r.Location.File, Line: r.Location.Line, Column: r.Location.Column}
		}
		tests = append(tests, t)
	}
	return tests, Summary{Passed: s.Passed, Failed: s.Failed, Skipped: s.Skipped, Unknown: s.Unknown, Total: s.Total}
}
