package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/pkg/stdcopy"
	"github.com/moby/moby/client"
)

// Job is one run request.
type Job struct {
	// ID names the run; empty: a random id.
	ID string
	// Workspace is the root whose snapshot the job sees (default
	// Options.Workspace).
	Workspace string
	// Overlay lays unsaved editor buffers over the workspace: path relative
	// to Workspace -> content.
	Overlay map[string][]byte
	// Profile names the profile (go, python, node or a configured one).
	Profile string
	// Cmd is the command; empty: the profile's test command.
	Cmd []string
	// Env is added to the profile's environment.
	Env map[string]string
	// Timeout ends the job with status timeout (default Options.Timeout).
	Timeout time.Duration
	// Files are extra files for the job, e.g. a test reporter plugin. A
	// relative path lands in the work dir, an absolute one must be under /tmp.
	Files map[string][]byte
	// Output, when set, receives the output as it arrives; stream is
	// "stdout" or "stderr". It is called from one goroutine at a time and
	// should not block for long.
	Output func(stream string, p []byte)
	// Cold skips the pool: a fresh container is made for this job.
	Cold bool
}

// Run executes job in a sandbox container and destroys the container. The
// error is non-nil only when the job could not start: bad job, unknown
// profile, missing image, engine down (errors.Is ErrEngineUnreachable).
// Once started, every outcome, cancellation and engine failure included, is
// a Result whose Status names the cause.
func (s *Sandbox) Run(ctx context.Context, job Job) (*Result, error) {
	t0 := time.Now()
	if s.closed.Load() {
		return nil, ErrClosed
	}
	p, err := s.profile(job.Profile)
	if err != nil {
		return nil, err
	}
	ws := job.Workspace
	if ws == "" {
		ws = s.opts.Workspace
	}
	if ws == "" {
		return nil, fmt.Errorf("%w: no workspace", ErrInvalidJob)
	}
	cmd := job.Cmd
	if len(cmd) == 0 {
		cmd = p.TestCmd
	}
	if len(cmd) == 0 {
		return nil, fmt.Errorf("%w: no command and profile %s has no test command", ErrInvalidJob, p.Name)
	}
	extra, err := extraFiles(job.Files, p.Workdir)
	if err != nil {
		return nil, err
	}
	env, err := jobEnv(job.Env)
	if err != nil {
		return nil, err
	}
	snap, err := TakeSnapshot(ctx, ws, job.Overlay, s.opts.Exclude)
	if err != nil {
		return nil, err
	}
	timeout := job.Timeout
	if timeout <= 0 {
		timeout = s.opts.Timeout
	}

	// A container: warm from the pool, else started now.
	var b *box
	var img ImageRef
	var sp spec
	if s.opts.PoolSize > 0 && !job.Cold {
		pl, err := s.poolFor(ctx, p, ws)
		if err != nil {
			return nil, err
		}
		img, sp = pl.image, pl.spec
		b = pl.take()
	} else {
		if img, err = s.ImageFor(ctx, p.Name, ws); err != nil {
			return nil, err
		}
		sp = s.specFor(p, img)
	}
	if b == nil {
		kind := "cold"
		if b, err = s.startBox(ctx, sp, kind); err != nil {
			return nil, err
		}
	}
	s.runs.Add(1)
	s.running.Add(1)
	defer s.running.Add(-1)

	id := job.ID
	if id == "" {
		id = newRunID()
	}
	res := &Result{
		ID: id, Profile: p.Name, Started: t0, Cmd: cmd, Image: img, ContainerID: b.id, Warm: b.warm,
		Files: len(snap.Files), Excluded: snap.Excluded,
	}
	j := &execution{s: s, b: b, sp: sp, res: res, limits: sp.limits}
	j.run(ctx, snap, extra, env, cmd, timeout, job.Output)
	res.Duration = time.Since(t0)
	s.log.Info("sandbox run", "id", res.ID, "profile", p.Name, "status", res.Status, "exit", res.ExitCode,
		"duration", res.Duration, "warm", res.Warm)
	return res, nil
}

// RunCold runs one job without a pool and without a long-lived Sandbox:
// the CLI's path when no daemon runs.
func RunCold(ctx context.Context, opts Options, job Job) (*Result, error) {
	opts.PoolSize = -1
	s, err := New(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer s.Close(context.WithoutCancel(ctx))
	if err := s.Ping(ctx); err != nil {
		return nil, err
	}
	return s.Run(ctx, job)
}

func newRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:4])
}

func extraFiles(files map[string][]byte, workdir string) ([]tarEntry, error) {
	var out []tarEntry
	for _, n := range slices.Sorted(maps.Keys(files)) {
		var full string
		if strings.HasPrefix(n, "/") {
			full = path.Clean(n)
			if !strings.HasPrefix(full, "/tmp/") && !strings.HasPrefix(full, workdir+"/") {
				return nil, fmt.Errorf("%w: file %s: absolute paths must be under /tmp or %s", ErrInvalidJob, n, workdir)
			}
		} else {
			rel, err := cleanRel(n)
			if err != nil {
				return nil, fmt.Errorf("%w: file: %v", ErrInvalidJob, err)
			}
			full = workdir + "/" + rel
		}
		out = append(out, tarEntry{name: strings.TrimPrefix(full, "/"), content: files[n], mode: 0o644})
	}
	return out, nil
}

func jobEnv(env map[string]string) ([]string, error) {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return nil, fmt.Errorf("%w: environment variable name %q", ErrInvalidJob, k)
		}
		out = append(out, k+"="+env[k])
	}
	return out, nil
}

// execution is one job in one container.
type execution struct {
	s      *Sandbox
	b      *box
	sp     spec
	res    *Result
	limits Limits

	mu     sync.Mutex
	reason Status // a limit the monitor saw, before the exec ended
	detail string
}

func (j *execution) stop(st Status, limit, detail string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.reason == "" {
		j.reason, j.res.Limit, j.detail = st, limit, detail
	}
}

func (j *execution) stopped() Status {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.reason
}

// run does the exec, watches it, classifies the outcome and destroys the
// container. It fills j.res.
func (j *execution) run(ctx context.Context, snap *Snapshot, extra []tarEntry, env, cmd []string, timeout time.Duration, emit func(string, []byte)) {
	s, res := j.s, j.res
	defer func() {
		if r := recover(); r != nil {
			res.Status, res.Reason = StatusEngineError, fmt.Sprintf("internal error in the sandbox runner: %v", r)
			s.log.Error("sandbox run panicked", "id", res.ID, "panic", r)
		}
		s.destroyLater(j.b.id)
	}()
	// The engine calls of the job outlive ctx: cancellation is handled
	// below, by destroying the container.
	ectx, ecancel := context.WithCancel(context.WithoutCancel(ctx))
	defer ecancel()

	// The job's exec is already running in the box, waiting on stdin.
	ex, att := j.b.job.execID, j.b.job.att
	res.StartLatency = time.Since(res.Started)
	defer att.Close()

	capt := newCapture(s.opts.OutputKeep, s.opts.OutputLimit, emit)
	type sent struct {
		sum string
		err error
	}
	sendDone := make(chan sent, 1)
	go func() {
		var sum string
		_, err := att.Conn.Write(jobLine(j.sp.profile.Workdir, env, cmd))
		if err == nil {
			sum, _, err = snap.writeTar(att.Conn, j.sp.profile.Workdir, extra)
		}
		if cerr := att.CloseWrite(); err == nil {
			err = cerr
		}
		sendDone <- sent{sum, err}
	}()
	copyDone := make(chan error, 1)
	go func() {
		_, err := stdcopy.StdCopy(capt.writer("stdout"), capt.writer("stderr"), att.Reader)
		copyDone <- err
	}()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var copyErr error
	exited := time.Time{}
wait:
	for {
		select {
		case copyErr = <-copyDone:
			if errors.Is(copyErr, errOutputLimit) {
				j.stop(StatusOutputLimit, "output="+strconv.FormatInt(s.opts.OutputLimit, 10),
					fmt.Sprintf("the job wrote more than the output limit (%s) and was stopped", formatBytes(s.opts.OutputLimit)))
			}
			break wait
		case <-ctx.Done():
			j.stop(StatusCancelled, "", "the run was cancelled")
			break wait
		case <-timer.C:
			j.stop(StatusTimeout, "timeout="+timeout.String(), fmt.Sprintf("the job ran longer than its timeout (%s) and was stopped", timeout))
			break wait
		case <-tick.C:
			if n := counter(j.b.cg.pidsEvents, "max"); n > 0 {
				j.stop(StatusPidsLimit, "pids="+strconv.FormatInt(j.limits.Pids, 10),
					fmt.Sprintf("the job hit the process limit (%d processes and threads; %d forks refused) and was stopped", j.limits.Pids, n))
				break wait
			}
			// The job's main process may be gone while a background child
			// still holds its output open: that child dies with the
			// container, and the job is over.
			in, err := s.eng.cli.ExecInspect(ectx, ex, client.ExecInspectOptions{})
			if err != nil {
				if isEngineDown(err) {
					j.engineFailed("watching the job", err)
					break wait
				}
				continue
			}
			if !in.Running && in.PID != 0 {
				if exited.IsZero() {
					exited = time.Now()
				} else if time.Since(exited) > 300*time.Millisecond {
					break wait
				}
			}
		}
	}
	// Closing the stream unblocks a snapshot write the job never read
	// (it was stopped, or its tar failed).
	att.Close()
	sd := <-sendDone
	res.SnapshotHash = sd.sum
	if sd.err != nil {
		if sum, err := snap.Hash(); err == nil {
			res.SnapshotHash = sum
		}
		if j.stopped() == "" {
			j.detail = "sending the workspace: " + sd.err.Error()
		}
	}
	if res.Status == "" && copyErr != nil && !errors.Is(copyErr, errOutputLimit) && j.stopped() == "" && isEngineDown(copyErr) {
		j.engineFailed("reading the job's output", copyErr)
	}
	if res.Status == StatusEngineError {
		res.Output, res.OutputTruncated, res.DroppedBytes = capt.result()
		res.OutputBytes = capt.bytes()
		return
	}
	j.finish(ectx, ex, capt)
}

func (j *execution) engineFailed(op string, err error) {
	j.res.Status = StatusEngineError
	if isEngineDown(err) {
		j.res.Reason = fmt.Sprintf("the Docker engine at %s went away while %s (%v); the run did not finish", j.s.eng.host, op, err)
	} else {
		j.res.Reason = fmt.Sprintf("the Docker engine failed %s: %v", op, err)
	}
	j.res.ExitCode = -1
}

// finish reads the exit code and the limit counters, then names the
// status. Limits are read before the container is destroyed.
func (j *execution) finish(ctx context.Context, execID string, capt *capture) {
	s, res := j.s, j.res
	defer func() {
		res.Output, res.OutputTruncated, res.DroppedBytes = capt.result()
		res.OutputBytes = capt.bytes()
	}()
	stopped := j.stopped()
	res.ExitCode = -1
	if stopped == "" || stopped == StatusOutputLimit {
		if in, err := s.eng.cli.ExecInspect(ctx, execID, client.ExecInspectOptions{}); err == nil && !in.Running {
			res.ExitCode = in.ExitCode
		} else if err != nil && isEngineDown(err) {
			j.engineFailed("reading the job's exit code", err)
			return
		}
	}
	if stopped == StatusCancelled {
		res.Status, res.Reason = StatusCancelled, j.detail
		return
	}
	// Memory: the engine's OOMKilled flag (exit codes lie: with an init
	// process an OOM-killed job can exit 0), its oom event, or the cgroup.
	oom := j.oomKilled(ctx)
	pidsHit := stopped == StatusPidsLimit || counter(j.b.cg.pidsEvents, "max") > 0
	switch {
	case oom:
		res.Status, res.Limit = StatusOOM, "memory="+strconv.FormatInt(j.limits.Memory, 10)
		res.Reason = fmt.Sprintf("the job ran out of memory (limit %s, swap included) and was killed", formatBytes(j.limits.Memory))
		return
	case stopped != "":
		res.Status, res.Reason = stopped, j.detail
		if pidsHit && stopped == StatusTimeout {
			res.Status, res.Limit = StatusPidsLimit, "pids="+strconv.FormatInt(j.limits.Pids, 10)
			res.Reason = fmt.Sprintf("the job hit the process limit (%d) and then its timeout", j.limits.Pids)
		}
		return
	case pidsHit:
		// Forks were refused even though the job went on to exit (a fork
		// bomb's shell waits for its children and exits 0): it did not pass.
		res.Status, res.Limit = StatusPidsLimit, "pids="+strconv.FormatInt(j.limits.Pids, 10)
		res.Reason = fmt.Sprintf("the job hit the process limit (%d processes and threads; %d forks refused) and exited %d",
			j.limits.Pids, counter(j.b.cg.pidsEvents, "max"), res.ExitCode)
		return
	case res.ExitCode == 0:
		res.Status = StatusPassed
		// Without the host's cgroup files (a remote engine) refused forks
		// are only visible from inside; a job that exited 0 is asked too.
		if j.b.cg.pidsEvents == "" {
			if pm := j.postMortem(ctx); pm.pidsMax > 0 {
				res.Status, res.Limit = StatusPidsLimit, "pids="+strconv.FormatInt(j.limits.Pids, 10)
				res.Reason = fmt.Sprintf("the job hit the process limit (%d processes and threads; %d forks refused) and exited 0", j.limits.Pids, pm.pidsMax)
			}
		}
		return
	}
	// A container that stopped under the job was stopped by the engine
	// (shutting down) or by someone else: the exit code is not the job's.
	if in, err := s.eng.cli.ContainerInspect(ctx, j.b.id, client.ContainerInspectOptions{}); err != nil {
		if isEngineDown(err) || cerrdefs.IsNotFound(err) {
			j.engineFailed("checking the container after the job", err)
			return
		}
	} else if in.Container.State != nil && !in.Container.State.Running {
		res.Status = StatusEngineError
		res.Reason = fmt.Sprintf("the sandbox container was stopped from outside during the run (engine shutdown or restart?); the job exited %d", res.ExitCode)
		return
	}
	res.Status = StatusFailed
	if res.ExitCode == 125 && j.detail != "" {
		res.Reason = j.detail
	}
	pm := j.postMortem(ctx)
	switch {
	case pidsHit || pm.pidsMax > 0 || pm.execRefused:
		res.Status, res.Limit = StatusPidsLimit, "pids="+strconv.FormatInt(j.limits.Pids, 10)
		res.Reason = fmt.Sprintf("the job hit the process limit (%d processes and threads)", j.limits.Pids)
	case pm.full != "":
		res.Status, res.Limit = StatusDiskFull, "tmpfs="+strconv.FormatInt(j.limits.TmpfsSize, 10)
		res.Reason = fmt.Sprintf("%s filled up (limit %s)", pm.full, formatBytes(j.limits.TmpfsSize))
	}
}

func (j *execution) oomKilled(ctx context.Context) bool {
	if n := counter(j.b.cg.memEvents, "oom_kill"); n > 0 {
		return true
	}
	for i := range 3 {
		if j.s.sawOOM(j.b.id) {
			return true
		}
		in, err := j.s.eng.cli.ContainerInspect(ctx, j.b.id, client.ContainerInspectOptions{})
		if err == nil && in.Container.State != nil && in.Container.State.OOMKilled {
			return true
		}
		if err != nil || j.res.ExitCode != 137 || i == 2 {
			return false
		}
		// An OOM kill reaches the engine as an event a moment after the
		// exec's exit: give it that moment when the exit code hints at it.
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

type postMortem struct {
	pidsMax     int64
	full        string // the mount that is full
	execRefused bool   // the post-mortem could not even start: no pids left
}

// postMortem looks inside a failed job's container for the limits that
// cannot be read from the host: the tmpfs fill level, and pids.events when
// the cgroup files are not visible here.
func (j *execution) postMortem(ctx context.Context) postMortem {
	var pm postMortem
	script := `cat /sys/fs/cgroup/pids/pids.events /sys/fs/cgroup/pids.events 2>/dev/null; df -P /tmp "$AISBX_WORKDIR" 2>/dev/null`
	out, err := j.s.execOutput(ctx, j.b.id, []string{"/bin/sh", "-c", script})
	if err != nil {
		pm.execRefused = containsAny(err.Error(), "resource temporarily unavailable", "fork", "EAGAIN")
		return pm
	}
	pm.pidsMax = max(parseCounter(out, "max"), 0)
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		// Filesystem 1024-blocks Used Available Capacity Mounted-on
		if len(f) == 6 && f[0] == "tmpfs" {
			avail, err := strconv.ParseInt(f[3], 10, 64)
			if err == nil && avail*1024 < 64<<10 {
				pm.full = f[5]
			}
		}
	}
	return pm
}

// execOutput runs a short command in a container and returns its output.
func (s *Sandbox) execOutput(ctx context.Context, id string, cmd []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ex, err := s.eng.cli.ExecCreate(ctx, id, client.ExecCreateOptions{AttachStdout: true, AttachStderr: true, Cmd: cmd})
	if err != nil {
		return nil, err
	}
	att, err := s.eng.cli.ExecAttach(ctx, ex.ID, client.ExecAttachOptions{})
	if err != nil {
		return nil, err
	}
	defer att.Close()
	var out, errOut bytes.Buffer
	if _, err := stdcopy.StdCopy(&out, &errOut, io.LimitReader(att.Reader, 1<<20)); err != nil {
		return nil, err
	}
	if in, err := s.eng.cli.ExecInspect(ctx, ex.ID, client.ExecInspectOptions{}); err == nil && in.ExitCode == 126 {
		return nil, fmt.Errorf("exec refused: %s", errOut.String())
	}
	if out.Len() == 0 && errOut.Len() > 0 {
		return nil, errors.New(errOut.String())
	}
	return out.Bytes(), nil
}
