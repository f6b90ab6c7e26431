package runner

import (
	"github.com/aisbx/aisbx/internal/testresults"
	"github.com/aisbx/aisbx/internal/testsel"
)

// aggregate merges the results of a run's jobs and forwards their events,
// with progress counted over the whole run.
type aggregate struct {
	forward  func(testresults.Event)
	jobs     []string
	done     []*testresults.Summary
	progress testresults.Progress // of the finished jobs
}

func newAggregate(forward func(testresults.Event)) *aggregate {
	return &aggregate{forward: forward}
}

// event rewrites a job's progress into the run's and forwards it.
func (a *aggregate) event(e testresults.Event) {
	if a.forward == nil {
		return
	}
	p := e.Progress
	p.Passed += a.progress.Passed
	p.Failed += a.progress.Failed
	p.Skipped += a.progress.Skipped
	p.Unknown += a.progress.Unknown
	if p.Total > 0 {
		p.Total += a.progress.Total
	}
	e.Progress = p
	a.forward(e)
}

func (a *aggregate) add(s *testresults.Summary) {
	a.done = append(a.done, s)
	a.progress.Passed += s.Passed
	a.progress.Failed += s.Failed
	a.progress.Skipped += s.Skipped
	a.progress.Unknown += s.Unknown
	a.progress.Total += s.Total
}

// summary merges every job's summary.
func (a *aggregate) summary() *testresults.Summary {
	out := &testresults.Summary{Results: []testresults.Result{}}
	for _, s := range a.done {
		if out.Framework == "" {
			out.Framework = s.Framework
		}
		out.Passed += s.Passed
		out.Failed += s.Failed
		out.Skipped += s.Skipped
		out.Unknown += s.Unknown
		out.Total += s.Total
		out.Duration += s.Duration
		out.Results = append(out.Results, s.Results...)
		out.Truncated = out.Truncated || s.Truncated
		out.Noise += s.Noise
	}
	return out
}

// failedRefs names the failed tests of a summary so that "re-run failed"
// can select them again.
func failedRefs(s *testresults.Summary) []testsel.TestRef {
	var out []testsel.TestRef
	for _, r := range s.Results {
		if r.Kind != testresults.KindTest || (r.Status != testresults.StatusFailed && r.Status != testresults.StatusUnknown) {
			continue
		}
		out = append(out, testsel.TestRef{Package: r.Package, File: r.File, Path: r.Path})
	}
	return out
}
