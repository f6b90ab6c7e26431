package testresults

import (
	"fmt"
	"strings"
	"time"
)

// Status is how a test ended.
type Status string

const (
	StatusPassed  Status = "passed"
	StatusFailed  Status = "failed"
	StatusSkipped Status = "skipped"
	// StatusUnknown: the test started but its end never arrived (the run
	// was killed, timed out, or its output was truncated).
	StatusUnknown Status = "unknown"
)

// ResultKind tells a test from the failures that are not one test's.
type ResultKind string

const (
	KindTest    ResultKind = "test"
	KindPackage ResultKind = "package" // a Go package failed outside its tests (TestMain, init, timeout)
	KindBuild   ResultKind = "build"   // a Go package did not compile
	KindLoad    ResultKind = "load"    // a test file did not load (collection, import or syntax error)
)

// Location is a place in the workspace: File is slash-separated and relative
// to the workspace root when the path was inside the container's workdir;
// otherwise it stays as printed and External is set.
type Location struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column,omitempty"`
	External bool   `json:"external,omitempty"`
}

func (l Location) String() string {
	if l.Column > 0 {
		return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Column)
	}
	return fmt.Sprintf("%s:%d", l.File, l.Line)
}

// Result is one test's outcome, or a failure of a package or file.
type Result struct {
	Kind ResultKind `json:"kind"`
	// Name is the test's name: Go "TestX/sub", pytest "TestA::test_b",
	// unittest "Class::method", JS "suite > case".
	Name string `json:"name"`
	// Path is Name split into levels, outermost first.
	Path []string `json:"path,omitempty"`
	// Package is the Go import path; File the test file, workspace-relative,
	// when known (always for Python and JS).
	Package  string        `json:"package,omitempty"`
	File     string        `json:"file,omitempty"`
	Status   Status        `json:"status"`
	Duration time.Duration `json:"duration_ns"`
	// Message is the first line of the failure or skip reason.
	Message string `json:"message,omitempty"`
	// Location is where it failed: the failing assertion, the panic, the
	// raise, the compile error.
	Location *Location `json:"location,omitempty"`
	// Frames are the stack frames inside the workspace, innermost first
	// for JS and Go, outermost first for Python (as each language prints).
	Frames []Location `json:"frames,omitempty"`
	// Output is a bounded excerpt of what the test printed and its failure
	// details.
	Output string `json:"output,omitempty"`
}

// ID identifies a result within a run.
func (r *Result) ID() string {
	return string(r.Kind) + "\x00" + r.Package + "\x00" + r.File + "\x00" + r.Name
}

// Progress counts a run's tests as they end.
type Progress struct {
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	Unknown int `json:"unknown,omitempty"`
	// Total is the number of tests expected, 0 when not known (go test
	// announces no total; pytest does after collection).
	Total int `json:"total,omitempty"`
}

// Done is how many tests have ended.
func (p Progress) Done() int { return p.Passed + p.Failed + p.Skipped + p.Unknown }

// String reads "12/40 passed, 1 failed" (or "12 passed" without a total).
func (p Progress) String() string {
	var b strings.Builder
	if p.Total > 0 {
		fmt.Fprintf(&b, "%d/%d passed", p.Passed, p.Total)
	} else {
		fmt.Fprintf(&b, "%d passed", p.Passed)
	}
	if p.Failed > 0 {
		fmt.Fprintf(&b, ", %d failed", p.Failed)
	}
	if p.Skipped > 0 {
		fmt.Fprintf(&b, ", %d skipped", p.Skipped)
	}
	if p.Unknown > 0 {
		fmt.Fprintf(&b, ", %d interrupted", p.Unknown)
	}
	return b.String()
}

// EventKind says what an Event reports.
type EventKind string

const (
	EventStart EventKind = "start" // a test started; Result holds its name
	EventEnd   EventKind = "end"   // a test (or package, build, file) ended; Result is final
	EventTotal EventKind = "total" // the expected number of tests became known
)

// Event is sent to the parser's callback as the run goes.
type Event struct {
	Kind     EventKind
	Result   *Result
	Progress Progress
}

// Summary is a whole run's outcome.
type Summary struct {
	Framework Framework `json:"framework"`
	Passed    int       `json:"passed"`
	Failed    int       `json:"failed"`
	Skipped   int       `json:"skipped"`
	Unknown   int       `json:"unknown,omitempty"`
	Total     int       `json:"total"`
	// Duration is the sum of the test binaries' or runners' own times as
	// reported; the caller knows the wall time.
	Duration time.Duration `json:"duration_ns"`
	Results  []Result      `json:"results"`
	// Truncated says the output was cut (the sandbox's cap) or ended in
	// the middle: tests without an end are StatusUnknown.
	Truncated bool `json:"truncated,omitempty"`
	// Noise counts output lines that were not test events.
	Noise int `json:"noise,omitempty"`
}

// Failures returns the results that failed, in order.
func (s *Summary) Failures() []Result {
	var out []Result
	for _, r := range s.Results {
		if r.Status == StatusFailed {
			out = append(out, r)
		}
	}
	return out
}

// String reads "3 failed, 37 passed, 2 skipped".
func (s *Summary) String() string {
	var parts []string
	if s.Failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", s.Failed))
	}
	parts = append(parts, fmt.Sprintf("%d passed", s.Passed))
	if s.Skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", s.Skipped))
	}
	if s.Unknown > 0 {
		parts = append(parts, fmt.Sprintf("%d interrupted", s.Unknown))
	}
	return strings.Join(parts, ", ")
}
