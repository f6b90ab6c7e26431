package sandbox

import (
	"fmt"
	"log/slog"
	"runtime"
	"time"
)

// Options configure a Sandbox. The zero value is usable: every zero field
// takes the default documented next to it (and in docs/sandbox.md).
type Options struct {
	// Host is the engine address; empty means DOCKER_HOST, else the local
	// socket. TLS comes from DOCKER_TLS_VERIFY and DOCKER_CERT_PATH.
	Host string
	// Workspace is the root this sandbox serves. It labels the pooled
	// containers and is where Warm and Run look for lockfiles.
	Workspace string
	// PoolSize is the number of warm containers per profile (default 2; a
	// negative value disables the pool: every run starts cold).
	PoolSize int
	// Memory, CPUs, PidsLimit, TmpfsSize: default limits of a container
	// (1 GiB with swap included, 2 cores or all if fewer, 256, 512 MiB per
	// tmpfs).
	Memory    int64
	CPUs      float64
	PidsLimit int64
	TmpfsSize int64
	// Timeout of a run when the job gives none (default 10 min).
	Timeout time.Duration
	// OutputLimit is the total output a run may produce before it is killed
	// with status output-limit (default 64 MiB). OutputKeep is how much of it
	// the Result keeps, half head and half tail (default 256 KiB).
	OutputLimit int64
	OutputKeep  int
	// Runtime is an OCI runtime registered with the engine, e.g. "runsc".
	// Empty: the engine's default. An unknown one fails New.
	Runtime string
	// Seccomp: "default" (the engine's), "strict" (shipped, see
	// StrictDenied) or a path to a JSON profile.
	Seccomp string
	// Exclude replaces DefaultExclude: gitignore patterns of files that never
	// enter a sandbox.
	Exclude []string
	// DaemonID names this process in container labels; empty: a random id.
	DaemonID string
	// MaxIdle is how long a warm container may wait for a job before it
	// exits by itself, which also bounds orphans (default 1 h).
	MaxIdle time.Duration
	// Profiles override built-in profiles field by field, or add new ones.
	Profiles map[string]Profile
	// Logger receives operational logs (default: discarded).
	Logger *slog.Logger
}

const (
	defaultPoolSize    = 2
	defaultMemory      = 1 << 30
	defaultPids        = 256
	defaultTmpfs       = 512 << 20
	defaultTimeout     = 10 * time.Minute
	defaultOutputLimit = 64 << 20
	defaultOutputKeep  = 256 << 10
	defaultMaxIdle     = time.Hour
)

func (o Options) withDefaults() (Options, error) {
	if o.PoolSize == 0 {
		o.PoolSize = defaultPoolSize
	}
	if o.PoolSize < 0 {
		o.PoolSize = 0
	}
	if o.Memory == 0 {
		o.Memory = defaultMemory
	}
	if o.CPUs == 0 {
		o.CPUs = float64(min(2, runtime.NumCPU()))
	}
	if o.PidsLimit == 0 {
		o.PidsLimit = defaultPids
	}
	if o.TmpfsSize == 0 {
		o.TmpfsSize = defaultTmpfs
	}
	if o.Timeout == 0 {
		o.Timeout = defaultTimeout
	}
	if o.OutputLimit == 0 {
		o.OutputLimit = defaultOutputLimit
	}
	if o.OutputKeep == 0 {
		o.OutputKeep = defaultOutputKeep
	}
	if o.MaxIdle == 0 {
		o.MaxIdle = defaultMaxIdle
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	switch {
	case o.Memory < 32<<20:
		return o, fmt.Errorf("sandbox memory %d: at least 32 MiB", o.Memory)
	case o.CPUs < 0.01:
		return o, fmt.Errorf("sandbox cpus %g: at least 0.01", o.CPUs)
	case o.PidsLimit < 8:
		return o, fmt.Errorf("sandbox pids limit %d: at least 8", o.PidsLimit)
	case o.TmpfsSize < 1<<20:
		return o, fmt.Errorf("sandbox tmpfs size %d: at least 1 MiB", o.TmpfsSize)
	case o.OutputLimit < int64(o.OutputKeep):
		return o, fmt.Errorf("sandbox output limit %d is below output keep %d", o.OutputLimit, o.OutputKeep)
	}
	return o, nil
}

func (o Options) limits() Limits {
	return Limits{Memory: o.Memory, CPUs: o.CPUs, Pids: o.PidsLimit, TmpfsSize: o.TmpfsSize}
}
