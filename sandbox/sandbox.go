package sandbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Sandbox runs jobs in hardened single-use containers and keeps a warm
// pool per profile. It is safe for concurrent use. Close it to destroy the
// pool.
type Sandbox struct {
	opts     Options
	eng      *engine
	inst     instance
	profiles map[string]Profile
	log      *slog.Logger

	bg     context.Context // lives until Close
	stop   context.CancelFunc
	wg     sync.WaitGroup
	closed atomic.Bool

	mu    sync.Mutex
	pools map[string]*pool // by profile name

	engineUp atomic.Bool
	oomMu    sync.Mutex
	oomSeen  map[string]bool // container ids with an oom event

	baseMu  sync.Mutex
	baseIDs map[string]baseID

	runs    atomic.Int64
	running atomic.Int64
}

type baseID struct {
	id   string
	when time.Time
}

// New returns a Sandbox for opts. It fails only on bad options or an
// unknown runtime: a down engine is not an error here (Run and Ping report
// it, and the sandbox recovers when the engine comes up), so a daemon can
// keep serving without one.
func New(ctx context.Context, opts Options) (*Sandbox, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	profiles, err := resolveProfiles(opts.Profiles)
	if err != nil {
		return nil, err
	}
	if opts.Workspace != "" {
		if opts.Workspace, err = filepath.Abs(opts.Workspace); err != nil {
			return nil, fmt.Errorf("workspace: %w", err)
		}
	}
	if _, err := seccompOpt(opts.Seccomp); err != nil {
		return nil, err
	}
	eng, err := connect(opts.Host)
	if err != nil {
		return nil, err
	}
	return newWithEngine(ctx, opts, profiles, eng)
}

// newWithEngine is New past option checking, on a given engine client.
func newWithEngine(ctx context.Context, opts Options, profiles map[string]Profile, eng *engine) (*Sandbox, error) {
	bg, stop := context.WithCancel(context.Background())
	s := &Sandbox{
		opts: opts, eng: eng, inst: newInstance(opts.DaemonID), profiles: profiles,
		log: opts.Logger.With("component", "sandbox"), bg: bg, stop: stop,
		pools: map[string]*pool{}, oomSeen: map[string]bool{}, baseIDs: map[string]baseID{},
	}
	if err := s.Ping(ctx); err == nil {
		s.engineUp.Store(true)
		if opts.Runtime != "" {
			if err := eng.hasRuntime(ctx, opts.Runtime); err != nil {
				stop()
				return nil, err
			}
		}
	} else if !errors.Is(err, ErrEngineUnreachable) {
		s.log.Warn("engine check failed", "err", err)
	}
	s.wg.Add(1)
	go s.watch()
	return s, nil
}

// Ping checks that the engine answers. Its error matches
// ErrEngineUnreachable when it does not, with a message saying how to
// start it.
func (s *Sandbox) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err := s.eng.info(ctx)
	return err
}

// DaemonID is the instance id in this sandbox's container labels.
func (s *Sandbox) DaemonID() string { return s.inst.id }

// Profiles returns the effective profiles (built-ins with overrides).
func (s *Sandbox) Profiles() map[string]Profile {
	out := make(map[string]Profile, len(s.profiles))
	for k, v := range s.profiles {
		out[k] = v
	}
	return out
}

func (s *Sandbox) profile(name string) (Profile, error) {
	p, ok := s.profiles[name]
	if !ok {
		names := make([]string, 0, len(s.profiles))
		for n := range s.profiles {
			names = append(names, n)
		}
		sort.Strings(names)
		return Profile{}, fmt.Errorf("%w %q (have %v)", ErrUnknownProfile, name, names)
	}
	return p, nil
}

// Warm starts the pools of the named profiles (none: the profiles whose
// marker files are in Options.Workspace) and returns once they are filling.
// A profile whose image is not built yet is skipped with an error that
// matches ErrImageNotBuilt.
func (s *Sandbox) Warm(ctx context.Context, profiles ...string) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if s.opts.PoolSize == 0 {
		return nil
	}
	if len(profiles) == 0 && s.opts.Workspace != "" {
		profiles = DetectProfiles(s.opts.Workspace, s.profiles)
	}
	var errs []error
	for _, name := range profiles {
		p, err := s.profile(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if _, err := s.poolFor(ctx, p, s.opts.Workspace); err != nil {
			errs = append(errs, fmt.Errorf("warming %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

// poolFor returns the pool of p for the image the workspace needs,
// replacing a pool of a stale image.
func (s *Sandbox) poolFor(ctx context.Context, p Profile, workspace string) (*pool, error) {
	img, err := s.ImageFor(ctx, p.Name, workspace)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return nil, ErrClosed
	}
	if old := s.pools[p.Name]; old != nil {
		if old.image.ID == img.ID {
			return old, nil
		}
		go old.close(context.WithoutCancel(ctx))
	}
	pl := newPool(s, s.specFor(p, img), img, s.opts.PoolSize)
	s.pools[p.Name] = pl
	return pl, nil
}

func (s *Sandbox) specFor(p Profile, img ImageRef) spec {
	labels := s.inst.labels()
	if s.opts.Workspace != "" {
		labels[labelWorkspace] = s.opts.Workspace
	}
	return spec{profile: p, image: img.ID, limits: p.Limits.or(s.opts.limits()), labels: labels, mounts: activeMounts(p, s.eng.local)}
}

// PoolStatus describes one profile's pool.
type PoolStatus struct {
	Profile   string `json:"profile"`
	Image     string `json:"image"`
	Size      int    `json:"size"`
	Idle      int    `json:"idle"`
	Starting  int    `json:"starting"`
	Created   int64  `json:"created"`
	Failures  int64  `json:"failures"`
	LastError string `json:"last_error,omitempty"`
}

// Pool returns the status of a profile's pool; ok is false when the
// profile has none (not warmed, or the pool is disabled).
func (s *Sandbox) Pool(profile string) (st PoolStatus, ok bool) {
	s.mu.Lock()
	pl := s.pools[profile]
	s.mu.Unlock()
	if pl == nil {
		return PoolStatus{}, false
	}
	return pl.status(), true
}

// StatusReport is what `aisbxd status` and `aisbxd doctor` show.
type StatusReport struct {
	Engine   EngineInfo   `json:"engine"`
	DaemonID string       `json:"daemon_id"`
	Runtime  string       `json:"runtime,omitempty"`
	Seccomp  string       `json:"seccomp"`
	Pools    []PoolStatus `json:"pools"`
	Runs     int64        `json:"runs"`
	Running  int64        `json:"running"`
}

// Status reports the engine and the pools. It does not fail: an engine
// that does not answer shows as unreachable with its error.
func (s *Sandbox) Status(ctx context.Context) StatusReport {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	info, _ := s.eng.info(ctx)
	st := StatusReport{Engine: info, DaemonID: s.inst.id, Runtime: s.opts.Runtime, Seccomp: s.opts.Seccomp,
		Runs: s.runs.Load(), Running: s.running.Load(), Pools: []PoolStatus{}}
	if st.Seccomp == "" {
		st.Seccomp = "default"
	}
	s.mu.Lock()
	for _, pl := range s.pools {
		st.Pools = append(st.Pools, pl.status())
	}
	s.mu.Unlock()
	sort.Slice(st.Pools, func(i, j int) bool { return st.Pools[i].Profile < st.Pools[j].Profile })
	return st
}

// Close destroys the pools and waits for running jobs' containers to go.
// Running jobs are not cancelled by Close; cancel their contexts first.
func (s *Sandbox) Close(ctx context.Context) error {
	if s.closed.Swap(true) {
		return nil
	}
	s.mu.Lock()
	pools := s.pools
	s.pools = map[string]*pool{}
	s.mu.Unlock()
	var errs []error
	for _, pl := range pools {
		if err := pl.close(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	s.stop()
	s.wg.Wait()
	_ = s.eng.cli.Close()
	return errors.Join(errs...)
}
