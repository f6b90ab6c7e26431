package records

import (
	"time"
)

// SchemaVersion is the version of the record format written now. Readers
// accept records of this version and older.
const SchemaVersion = 1

// Trigger says what started a run.
type Trigger string

const (
	TriggerCodeAction Trigger = "code-action"
	TriggerLens       Trigger = "code-lens"
	TriggerCLI        Trigger = "cli"
	TriggerAgent      Trigger = "agent"
	TriggerWatcher    Trigger = "watcher"
)

// Record is the audit trail of one sandboxed test run: what ran, on what,
// why, and what came of it. With the image digest, the snapshot hash and
// the command it is enough to run the same thing again.
//
// Every string is redacted before it is written unless its field is tagged
// redact:"-" (identifiers, hashes, digests, versions): a field added later
// is redacted by default.
type Record struct {
	Version int       `json:"version"`
	ID      string    `json:"id" redact:"-"`
	Time    time.Time `json:"time"`
	Trigger Trigger   `json:"trigger" redact:"-"`
	// Root is the host workspace; Workdir its path in the container.
	Root    string  `json:"root"`
	Workdir string  `json:"workdir"`
	Command Command `json:"command"`
	Image   Image   `json:"image"`
	Profile string  `json:"profile,omitempty"`
	// Dependencies are read from lockfiles and module lists.
	Dependencies []Dependency `json:"dependencies"`
	SBOM         *SBOM        `json:"sbom,omitempty"`
	Selection    Selection    `json:"selection"`
	Tests        []Test       `json:"tests"`
	Summary      Summary      `json:"summary"`
	// Status and Reason come from the sandbox: passed, failed, timeout,
	// oom, pids-limit, output-limit, disk-full, engine-error.
	Status   string        `json:"status" redact:"-"`
	Reason   string        `json:"reason,omitempty"`
	ExitCode int           `json:"exit_code"`
	Snapshot Snapshot      `json:"snapshot"`
	Changed  []ChangedFile `json:"changed"`
	// Provenance lists the AI edits behind the changed ranges, when the
	// watcher knows them.
	Provenance []Provenance `json:"provenance"`
	// Jobs lists every sandbox job when the run needed more than one (a
	// workspace with Go and Python tests); the top-level command, image and
	// status are then the first job's.
	Jobs          []Job  `json:"jobs,omitempty"`
	AisbxdVersion string `json:"aisbxd_version" redact:"-"`
	DurationMS    int64  `json:"duration_ms"`
	// Output is a bounded excerpt of the run's output (head and tail).
	Output          string `json:"output,omitempty"`
	OutputTruncated bool   `json:"output_truncated,omitempty"`
}

// Job is one sandbox job of a run.
type Job struct {
	Profile  string  `json:"profile" redact:"-"`
	Image    Image   `json:"image"`
	Command  Command `json:"command"`
	Status   string  `json:"status" redact:"-"`
	Reason   string  `json:"reason,omitempty"`
	ExitCode int     `json:"exit_code"`
}

// Duration is the run's wall time.
func (r *Record) Duration() time.Duration { return time.Duration(r.DurationMS) * time.Millisecond }

// Command is what ran in the container.
type Command struct {
	Argv []string `json:"argv"`
	Env  []string `json:"env,omitempty"`
	// Dir is the workspace-relative directory it ran in.
	Dir string `json:"dir,omitempty"`
}

// Image is the sandbox image the run used.
type Image struct {
	Ref    string `json:"ref" redact:"-"`
	Digest string `json:"digest" redact:"-"`
}

// Dependency is one package the workspace depends on.
type Dependency struct {
	Ecosystem string `json:"ecosystem" redact:"-"` // go, pypi, npm
	Name      string `json:"name" redact:"-"`
	Version   string `json:"version" redact:"-"`
	// Source is the workspace-relative file it was read from.
	Source string `json:"source,omitempty"`
}

// SBOM points at the software bill of materials of the run's image and
// workspace, when one was made.
type SBOM struct {
	SHA256 string `json:"sha256" redact:"-"`
	File   string `json:"file"`
}

// Selection says which tests were chosen and why.
type Selection struct {
	Mode string `json:"mode" redact:"-"` // affected, all, file, test, failed
	// Items say why each unit (Go package, test file) runs.
	Items []SelectionItem `json:"items"`
	// Fallback is set when an unmapped change made whole suites run.
	Fallback string `json:"fallback,omitempty"`
	Selected int    `json:"selected"`
	Total    int    `json:"total"`
}

// SelectionItem explains one selected unit.
type SelectionItem struct {
	Lang   string   `json:"lang" redact:"-"`
	Unit   string   `json:"unit"`
	Reason string   `json:"reason"`
	Chain  []string `json:"chain,omitempty"`
}

// Test is one test's result.
type Test struct {
	Name       string    `json:"name"`
	Package    string    `json:"package,omitempty"`
	File       string    `json:"file,omitempty"`
	Kind       string    `json:"kind,omitempty" redact:"-"` // test, package, build, load
	Status     string    `json:"status" redact:"-"`         // passed, failed, skipped, unknown
	DurationMS float64   `json:"duration_ms"`
	Message    string    `json:"message,omitempty"`
	Location   *Location `json:"location,omitempty"`
	Output     string    `json:"output,omitempty"`
}

// Location is a workspace-relative file:line.
type Location struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column,omitempty"`
}

// Summary counts the tests.
type Summary struct {
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	Unknown int `json:"unknown,omitempty"`
	Total   int `json:"total"`
}

// Snapshot identifies the workspace content the run saw.
type Snapshot struct {
	Hash  string `json:"hash" redact:"-"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
}

// ChangedFile is a file the run was about, with its content hash ("" when
// the change deleted it).
type ChangedFile struct {
	Path    string `json:"path"`
	SHA256  string `json:"sha256,omitempty" redact:"-"`
	Deleted bool   `json:"deleted,omitempty"`
}

// Provenance is one AI edit behind a change.
type Provenance struct {
	Tool    string  `json:"tool,omitempty"`
	Model   string  `json:"model,omitempty"`
	Session string  `json:"session,omitempty"`
	Prompt  string  `json:"prompt,omitempty"`
	File    string  `json:"file,omitempty"`
	Ranges  []Range `json:"ranges,omitempty"`
}

// Range is a span of 1-based lines, inclusive.
type Range struct {
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
}
