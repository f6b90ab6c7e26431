package sandbox

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
)

// box is one started sandbox container.
type box struct {
	id      string
	created time.Time
	cg      cgroupFiles
	warm    bool
	job     *waitingJob // the job's exec, started and waiting for its job
}

// release closes the stream of a box's waiting job, for a box destroyed
// without running one.
func (b *box) release() {
	if b.job != nil {
		b.job.att.Close()
	}
}

// waitingJob is a box's job exec: started with the container (jobScript)
// and attached, so that a run only has to write its job down the stream.
type waitingJob struct {
	execID string
	att    client.ExecAttachResult
}

// pool keeps size started containers of one profile and image. Taking one
// hands it to a job for good; the pool refills in the background, at most
// size at a time, so it never holds more than size idle containers.
type pool struct {
	sb    *Sandbox
	spec  spec
	image ImageRef
	size  int

	mu       sync.Mutex
	idle     []*box
	starting int
	closed   bool
	lastErr  string
	backoff  time.Duration

	created  atomic.Int64
	failures atomic.Int64
	kick     chan struct{}
	done     chan struct{}
}

func newPool(s *Sandbox, sp spec, img ImageRef, size int) *pool {
	pl := &pool{sb: s, spec: sp, image: img, size: size, kick: make(chan struct{}, 1), done: make(chan struct{})}
	s.wg.Add(1)
	go pl.refillLoop()
	pl.poke()
	return pl
}

func (pl *pool) poke() {
	select {
	case pl.kick <- struct{}{}:
	default:
	}
}

// refillLoop starts containers until the pool is full, whenever poked.
func (pl *pool) refillLoop() {
	defer pl.sb.wg.Done()
	defer func() {
		if r := recover(); r != nil {
			pl.sb.log.Error("pool refill panicked", "profile", pl.spec.profile.Name, "panic", r)
		}
	}()
	for {
		select {
		case <-pl.done:
			return
		case <-pl.sb.bg.Done():
			return
		case <-pl.kick:
		}
		for {
			pl.mu.Lock()
			need := pl.size - len(pl.idle) - pl.starting
			if pl.closed || need <= 0 || !pl.sb.engineUp.Load() {
				pl.mu.Unlock()
				break
			}
			pl.starting += need
			pl.mu.Unlock()
			var wg sync.WaitGroup
			var failed atomic.Bool
			for range need {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if !pl.addOne() {
						failed.Store(true)
					}
				}()
			}
			wg.Wait()
			if failed.Load() {
				pl.mu.Lock()
				pl.backoff = min(max(pl.backoff*2, 500*time.Millisecond), 30*time.Second)
				wait := pl.backoff
				pl.mu.Unlock()
				select {
				case <-time.After(wait):
				case <-pl.done:
					return
				case <-pl.sb.bg.Done():
					return
				}
			}
		}
	}
}

func (pl *pool) addOne() bool {
	ctx, cancel := context.WithTimeout(pl.sb.bg, 60*time.Second)
	defer cancel()
	b, err := pl.sb.startBox(ctx, pl.spec, "pool")
	pl.mu.Lock()
	pl.starting--
	if err != nil {
		pl.lastErr = err.Error()
		pl.mu.Unlock()
		pl.failures.Add(1)
		if !errors.Is(err, ErrEngineUnreachable) {
			pl.sb.log.Warn("pool: starting a container failed", "profile", pl.spec.profile.Name, "err", err)
		}
		return false
	}
	if pl.closed {
		pl.mu.Unlock()
		b.release()
		pl.sb.destroy(context.WithoutCancel(ctx), b.id)
		return true
	}
	b.warm = true
	pl.idle = append(pl.idle, b)
	pl.lastErr = ""
	pl.backoff = 0
	pl.mu.Unlock()
	pl.created.Add(1)
	return true
}

// take hands out the oldest idle container, or nil when none is idle.
// Containers too close to their idle deadline are dropped instead.
func (pl *pool) take() *box {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	defer pl.poke()
	for len(pl.idle) > 0 {
		b := pl.idle[0]
		pl.idle = pl.idle[1:]
		if time.Since(b.created) < pl.sb.opts.MaxIdle-time.Minute {
			return b
		}
		b.release()
		go pl.sb.destroy(pl.sb.bg, b.id)
	}
	return nil
}

// forget drops a container that died on its own (an event said so).
func (pl *pool) forget(id string) bool {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	for i, b := range pl.idle {
		if b.id == id {
			b.release()
			pl.idle = append(pl.idle[:i], pl.idle[i+1:]...)
			pl.poke()
			return true
		}
	}
	return false
}

// drop forgets every idle container without touching the engine (used
// when the engine restarted: they are gone or will be reaped).
func (pl *pool) drop() {
	pl.mu.Lock()
	for _, b := range pl.idle {
		b.release()
	}
	pl.idle = nil
	pl.mu.Unlock()
}

func (pl *pool) close(ctx context.Context) error {
	pl.mu.Lock()
	if pl.closed {
		pl.mu.Unlock()
		return nil
	}
	pl.closed = true
	idle := pl.idle
	pl.idle = nil
	close(pl.done)
	pl.mu.Unlock()
	var errs []error
	for _, b := range idle {
		b.release()
		if err := pl.sb.destroy(ctx, b.id); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (pl *pool) status() PoolStatus {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	return PoolStatus{
		Profile: pl.spec.profile.Name, Image: pl.image.Ref, Size: pl.size, Idle: len(pl.idle), Starting: pl.starting,
		Created: pl.created.Load(), Failures: pl.failures.Load(), LastError: pl.lastErr,
	}
}

// startBox creates and starts one hardened container.
func (s *Sandbox) startBox(ctx context.Context, sp spec, kind string) (*box, error) {
	cfg, host, err := s.containerConfig(sp, kind, s.opts.MaxIdle)
	if err != nil {
		return nil, err
	}
	// The create is not cancelled half-way: the engine may create the
	// container after the client gave up on the request, and nothing would
	// know its ID to remove it. A cancelled caller's container is removed
	// right after instead.
	createCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 60*time.Second)
	res, err := s.eng.cli.ContainerCreate(createCtx, client.ContainerCreateOptions{Config: cfg, HostConfig: host})
	cancel()
	if err != nil {
		if s.opts.Runtime != "" && containsAny(err.Error(), "unknown runtime", "runtime") {
			return nil, fmt.Errorf("%w: %q: %v", ErrRuntimeUnknown, s.opts.Runtime, err)
		}
		return nil, s.eng.wrap("creating a sandbox container", err)
	}
	b, err := s.readyBox(ctx, sp, res.ID)
	if err != nil {
		s.destroy(context.WithoutCancel(ctx), res.ID)
		return nil, err
	}
	return b, nil
}

// readyBox starts a created container and its job's exec. On an error the
// caller removes the container.
func (s *Sandbox) readyBox(ctx context.Context, sp spec, id string) (*box, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("creating a sandbox container: %w", err)
	}
	if _, err := s.eng.cli.ContainerStart(ctx, id, client.ContainerStartOptions{}); err != nil {
		return nil, s.eng.wrap("starting a sandbox container", err)
	}
	b := &box{id: id, created: time.Now()}
	if s.eng.local {
		if in, err := s.eng.cli.ContainerInspect(ctx, id, client.ContainerInspectOptions{}); err == nil && in.Container.State != nil {
			b.cg = findCgroupFiles(in.Container.State.Pid)
		}
	}
	// Start the job's exec now, off the run's path: it waits on stdin.
	ex, err := s.eng.cli.ExecCreate(ctx, id, client.ExecCreateOptions{
		AttachStdin: true, AttachStdout: true, AttachStderr: true, WorkingDir: sp.profile.Workdir,
		Cmd: []string{"/bin/sh", "-c", jobScript, "aisbx-job"},
	})
	if err != nil {
		return nil, s.eng.wrap("creating the job's exec", err)
	}
	att, err := s.eng.cli.ExecAttach(context.WithoutCancel(ctx), ex.ID, client.ExecAttachOptions{})
	if err != nil {
		return nil, s.eng.wrap("starting the job's exec", err)
	}
	b.job = &waitingJob{execID: ex.ID, att: att}
	return b, nil
}

// destroyLater removes a used container in the background: the job's
// result is known, and the caller should not wait for the engine to kill
// and remove it (a hundred milliseconds and more). Close waits for it.
func (s *Sandbox) destroyLater(id string) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := s.destroy(s.bg, id); err != nil {
			s.log.Warn("destroying a sandbox container failed; the next reap removes it", "id", shortID(id), "err", err)
		}
	}()
}

// destroy removes a container and everything in it. A container already
// gone counts as destroyed.
func (s *Sandbox) destroy(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	_, err := s.eng.cli.ContainerRemove(ctx, id, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
	if err == nil || cerrdefs.IsNotFound(err) {
		return nil
	}
	if !isGone(err) {
		return s.eng.wrap("removing container "+shortID(id), err)
	}
	// The engine's own removal (AutoRemove) is under way: wait for it, so
	// that a destroyed container is gone when destroy returns.
	for {
		if _, err := s.eng.cli.ContainerInspect(ctx, id, client.ContainerInspectOptions{}); cerrdefs.IsNotFound(err) {
			return nil
		} else if err != nil && !isEngineAnswer(err) {
			return s.eng.wrap("waiting for container "+shortID(id)+" to go", err)
		}
		select {
		case <-ctx.Done():
			return s.eng.wrap("waiting for container "+shortID(id)+" to go", ctx.Err())
		case <-time.After(25 * time.Millisecond):
		}
	}
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
