package runner

import (
	"github.com/aisbx/aisbx/internal/testresults"
	"github.com/aisbx/aisbx/internal/testsel"
)

// JSON is a run as `aisbxd run --json` prints it; the daemon's aisbx/run
// answers with it too, so warm and cold runs print the same.
type JSON struct {
	ID              string     `json:"id"`
	Status          string     `json:"status"`
	ExitCode        int        `json:"exit_code"`
	DurationMS      int64      `json:"duration_ms"`
	Image           JSONImage  `json:"image"`
	Reason          string     `json:"reason,omitempty"`
	OutputTruncated bool       `json:"output_truncated"`
	Tests           []JSONTest `json:"tests"`
	Summary         JSONCounts `json:"summary"`
	Selection       *struct {
		Mode        string   `json:"mode"`
		Explanation []string `json:"explanation"`
	} `json:"selection,omitempty"`
	Message string `json:"message"`
	Record  string `json:"record,omitempty"`
	Warm    bool   `json:"warm"`
}

type JSONImage struct {
	Ref    string `json:"ref"`
	Digest string `json:"digest"`
}

type JSONTest struct {
	Name       string  `json:"name"`
	Package    string  `json:"package,omitempty"`
	File       string  `json:"file,omitempty"`
	Status     string  `json:"status"`
	DurationMS float64 `json:"duration_ms"`
	Message    string  `json:"message,omitempty"`
	Location   string  `json:"location,omitempty"` // file:line, workspace-relative
}

type JSONCounts struct {
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	Total   int `json:"total"`
}

// ToJSON converts an outcome.
func (o *Outcome) ToJSON() *JSON {
	j := &JSON{ID: o.ID, Status: o.Status, ExitCode: o.ExitCode, DurationMS: o.Duration.Milliseconds(),
		Reason: o.Reason, Tests: []JSONTest{}, Message: o.Message(), Record: o.RecordPath}
	for i, job := range o.Jobs {
		if i == 0 {
			d := job.Image.Digest
			if d == "" {
				d = job.Image.ID
			}
			j.Image = JSONImage{Ref: job.Image.Ref, Digest: d}
			j.Warm = job.Warm
		}
		j.OutputTruncated = j.OutputTruncated || job.OutputTruncated
	}
	if s := o.Summary; s != nil {
		j.Summary = JSONCounts{Passed: s.Passed, Failed: s.Failed, Skipped: s.Skipped, Total: s.Total}
		for i := range s.Results {
			j.Tests = append(j.Tests, TestJSON(&s.Results[i]))
		}
	}
	if o.Selection != nil {
		j.Selection = &struct {
			Mode        string   `json:"mode"`
			Explanation []string `json:"explanation"`
		}{Mode: string(o.Selection.Mode), Explanation: explain(o.Selection)}
	}
	return j
}

// TestJSON converts one test result.
func TestJSON(r *testresults.Result) JSONTest {
	t := JSONTest{Name: r.Name, Package: r.Package, File: r.File, Status: string(r.Status),
		DurationMS: float64(r.Duration.Microseconds()) / 1000, Message: r.Message}
	if r.Location != nil {
		t.Location = r.Location.String()
	}
	return t
}

// explain lists why each unit runs, the fallback first.
func explain(sel *testsel.Selection) []string {
	var out []string
	if sel.Fallback != "" {
		out = append(out, "whole suite: "+sel.Fallback)
	}
	for _, it := range sel.Items() {
		out = append(out, it.String())
	}
	return out
}

// Explanation lists why each selected unit runs.
func Explanation(sel *testsel.Selection) []string {
	if sel == nil {
		return nil
	}
	return explain(sel)
}
