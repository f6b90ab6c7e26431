package sandbox

import (
	"fmt"
	"time"
)

// Status names how a run ended.
type Status string

const (
	StatusPassed      Status = "passed"       // exit code 0
	StatusFailed      Status = "failed"       // non-zero exit, no limit involved
	StatusTimeout     Status = "timeout"      // the job's timeout ran out
	StatusOOM         Status = "oom"          // the memory limit was hit (State.OOMKilled)
	StatusPidsLimit   Status = "pids-limit"   // the pids limit refused a fork
	StatusOutputLimit Status = "output-limit" // the job wrote more than OutputLimit
	StatusDiskFull    Status = "disk-full"    // the work dir or /tmp tmpfs filled up
	StatusEngineError Status = "engine-error" // the engine failed or went away mid-run
	StatusCancelled   Status = "cancelled"    // the caller cancelled
)

// Result is the record of one run.
type Result struct {
	ID       string        `json:"id"`
	Profile  string        `json:"profile"`
	Status   Status        `json:"status"`
	ExitCode int           `json:"exit_code"`
	Duration time.Duration `json:"duration_ns"`
	Started  time.Time     `json:"started"`
	Cmd      []string      `json:"cmd"`
	Image    ImageRef      `json:"image"`
	// Reason says why, in words, for any status but passed and failed, and
	// names the limit that was hit.
	Reason string `json:"reason,omitempty"`
	// Limit is the limit that ended the run ("memory=1073741824"), if any.
	Limit string `json:"limit,omitempty"`
	// Output holds stdout and stderr interleaved as they arrived, capped at
	// Options.OutputKeep: head and tail, with a marker where bytes were
	// dropped.
	Output          []byte `json:"output"`
	OutputBytes     int64  `json:"output_bytes"`
	OutputTruncated bool   `json:"output_truncated"`
	DroppedBytes    int64  `json:"dropped_bytes"`
	// SnapshotHash is the content hash of the workspace snapshot (see
	// Snapshot); Files counts its files, Excluded those left out.
	SnapshotHash string   `json:"snapshot_hash"`
	Files        int      `json:"files"`
	Excluded     []string `json:"excluded,omitempty"`
	// Warm is true when a pooled container ran the job.
	Warm        bool   `json:"warm"`
	ContainerID string `json:"container_id"`
	// StartLatency is the time from the Run call to the job's exec starting.
	StartLatency time.Duration `json:"start_latency_ns"`
}

// ImageRef identifies the image a run used.
type ImageRef struct {
	Ref    string `json:"ref"`
	ID     string `json:"id"`               // the local image ID (config digest)
	Digest string `json:"digest,omitempty"` // a repo digest when the image has one
}

// Passed is a shorthand for Status == StatusPassed.
func (r *Result) Passed() bool { return r.Status == StatusPassed }

func formatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
