package runner

import (
	"fmt"
	"time"

	"github.com/aisbx/aisbx/internal/records"
	"github.com/aisbx/aisbx/internal/testresults"
	"github.com/aisbx/aisbx/internal/testsel"
	"github.com/aisbx/aisbx/sandbox"
)

// Request says what to run.
type Request struct {
	// Mode picks the tests: affected (default), all, file, test, failed.
	Mode testsel.Mode
	// Changed are workspace-relative changed files for ModeAffected. When
	// nil, the runner uses the changes it knows of since the last green run
	// plus `git diff Since` and untracked files.
	Changed []string
	// Since is the git revision affected compares against ("" = HEAD).
	Since string
	// Files are the files of ModeFile; Tests the tests of ModeTest.
	Files []string
	Tests []testsel.TestRef
	// Overlay are unsaved editor buffers by workspace-relative path: what
	// runs is what the user sees.
	Overlay map[string][]byte
	// Cmd, when set, runs this command instead of selected tests (aisbxd run
	// -- CMD); Profile then picks the image (default: detected).
	Cmd     []string
	Profile string
	// Timeout bounds each sandbox job; zero means the sandbox's default.
	Timeout time.Duration
	// Trigger and Provenance go into the record.
	Trigger    records.Trigger
	Provenance []records.Provenance
}

// Observer receives a run's progress as it happens. Every field is
// optional; callbacks come from one goroutine at a time.
type Observer struct {
	// Started is called once the selection is known, before any job.
	Started func(s *Started)
	// Event is called as tests start and end.
	Event func(e testresults.Event)
	// Output receives the jobs' output as it streams.
	Output func(stream string, p []byte)
	// Building reports the progress of a sandbox image the run builds
	// first because it was missing.
	Building func(p sandbox.BuildProgress)
}

// Started describes a run about to start.
type Started struct {
	ID        string
	Title     string // "Running affected tests: 3 of 12 packages"
	Selection *testsel.Selection
	Profiles  []string
}

// Outcome is a finished run.
type Outcome struct {
	ID      string
	Started time.Time
	// Status is the run's verdict: passed, failed, no-tests, or the
	// sandbox's cause (timeout, oom, pids-limit, output-limit, disk-full,
	// engine-error, cancelled).
	Status   string
	Reason   string
	ExitCode int
	Duration time.Duration
	// Summary merges the parsed results of every job; nil for a run with
	// an explicit command whose output is not a test stream.
	Summary   *testresults.Summary
	Selection *testsel.Selection
	Jobs      []*sandbox.Result
	Record    *records.Record
	// RecordPath is where the record was written ("" if it could not be).
	RecordPath string
}

// Message is the one-line summary editors show: "3 failed, 37 passed in
// 2.1 s (sandbox go@sha256:…)".
func (o *Outcome) Message() string {
	var what string
	switch {
	case o.Status == StatusNoTests:
		return "aisbx: " + o.Reason
	case o.Summary != nil && o.Summary.Total > 0:
		what = o.Summary.String()
	default:
		what = o.Status
	}
	msg := what + " in " + seconds(o.Duration)
	if img := o.imageLabel(); img != "" {
		msg += " (sandbox " + img + ")"
	}
	if o.Status != "passed" && o.Status != "failed" && o.Reason != "" {
		msg += ": " + o.Reason
	}
	return msg
}

func (o *Outcome) imageLabel() string {
	for _, j := range o.Jobs {
		if j.Image.Ref == "" {
			continue
		}
		d := j.Image.Digest
		if d == "" {
			d = j.Image.ID
		}
		if len(d) > 19 {
			d = d[:19] + "…"
		}
		return j.Profile + "@" + d
	}
	return ""
}

// StatusNoTests: the selection was empty; nothing ran.
const StatusNoTests = "no-tests"

func seconds(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return d.Round(time.Second).String()
}
