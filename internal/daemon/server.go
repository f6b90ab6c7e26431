package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/aisbx/aisbx/internal/version"
	"github.com/aisbx/aisbx/internal/workspace"
	"github.com/aisbx/aisbx/lsp"
)

// Options configures the daemon.
type Options struct {
	Socket      string
	IdleTimeout time.Duration // exit after this long with no connection; 0 never
	Logger      *slog.Logger
	NewEngine   workspace.EngineFactory
	// Control returns aisbx/* request handlers to add to the built-in ones;
	// they reach the daemon's shared workspaces through d.Registry().
	Control func(d *Daemon) map[string]lsp.ControlHandler
	// Started runs in the background once the daemon listens (reaping a
	// crashed predecessor's sandbox containers, for instance).
	Started func(ctx context.Context, d *Daemon)
	// DaemonID labels what this daemon creates; "" generates one.
	DaemonID string
}

// Daemon is a running daemon.
type Daemon struct {
	opts    Options
	log     *slog.Logger
	reg     *workspace.Registry
	started time.Time
	ln      net.Listener
	stop    context.CancelFunc
	control map[string]lsp.ControlHandler
	mu      sync.Mutex
	active  int
	idle    *time.Timer
	conns   sync.WaitGroup
}

// Run starts the daemon and serves until ctx is done, the idle timeout
// passes with no client, or a client asks it to stop. It returns
// ErrAlreadyRunning when another daemon owns the socket.
func Run(ctx context.Context, opts Options) error {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Socket == "" {
		opts.Socket = SocketPath()
	}
	if err := ensureDir(filepath.Dir(opts.Socket)); err != nil {
		return err
	}
	lk, err := acquireLock(opts.Socket)
	// A daemon that was just asked to stop keeps its lock while it shuts
	// down, without answering any more: wait for it, rather than leave the
	// editor that started us without a daemon.
	for deadline := time.Now().Add(5 * time.Second); errors.Is(err, ErrAlreadyRunning) && !answers(opts.Socket) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		lk, err = acquireLock(opts.Socket)
	}
	if err != nil {
		return err
	}
	defer lk.release()

	// We hold the lock: whatever socket file exists is a dead daemon's.
	_ = os.Remove(opts.Socket)
	old := syscall.Umask(0o077)
	ln, err := net.Listen("unix", opts.Socket)
	syscall.Umask(old)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", opts.Socket, err)
	}
	if err := os.Chmod(opts.Socket, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("securing socket: %w", err)
	}
	defer os.Remove(opts.Socket)

	ctx, stop := context.WithCancel(ctx)
	defer stop()
	if opts.DaemonID == "" {
		opts.DaemonID = fmt.Sprintf("aisbxd-%d-%d", os.Getpid(), time.Now().UnixNano()%1e9)
	}
	d := &Daemon{
		opts: opts, log: opts.Logger, started: time.Now(), ln: ln, stop: stop,
		reg: workspace.NewRegistry(ctx, workspace.Options{Logger: opts.Logger, NewEngine: opts.NewEngine,
			DaemonID: opts.DaemonID, WarmPools: true, Linger: 10 * time.Minute, Watch: true}),
	}
	d.control = map[string]lsp.ControlHandler{
		"aisbx/status": d.statusHandler,
		"aisbx/stop":   d.stopHandler,
	}
	if opts.Control != nil {
		for m, h := range opts.Control(d) {
			d.control[m] = h
		}
	}
	d.armIdle()
	d.log.Info("daemon started", "socket", opts.Socket, "version", version.String(), "idle_timeout", opts.IdleTimeout)

	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	if opts.Started != nil {
		go opts.Started(ctx, d)
	}
	err = d.accept(ctx)
	d.conns.Wait()
	d.reg.Close()
	d.log.Info("daemon stopped", "uptime", time.Since(d.started).Round(time.Second))
	return err
}

// answers reports whether a daemon accepts connections on socket.
func answers(socket string) bool {
	c, err := net.DialTimeout("unix", socket, 200*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// Registry exposes the daemon's shared workspaces to control handlers.
func (d *Daemon) Registry() *workspace.Registry { return d.reg }

// ID is the daemon's instance id.
func (d *Daemon) ID() string { return d.opts.DaemonID }

func (d *Daemon) accept(ctx context.Context) error {
	for {
		conn, err := d.ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil // stopping
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return fmt.Errorf("accepting: %w", err)
		}
		if err := checkPeer(conn); err != nil {
			d.log.Warn("refused connection", "err", err)
			conn.Close()
			continue
		}
		d.connected()
		d.conns.Add(1)
		go func() {
			defer d.conns.Done()
			defer d.disconnected()
			lsp.Serve(ctx, conn, lsp.Options{Registry: d.reg, Logger: d.log, Control: d.control, Shared: true, Started: d.started})
		}()
	}
}

// checkPeer refuses connections from other users. The socket is 0600 in a
// 0700 directory already; this holds even if someone loosens those.
func checkPeer(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return fmt.Errorf("reading peer credentials: %w", cerr)
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("peer uid %d is not %d", cred.Uid, os.Getuid())
	}
	return nil
}

func (d *Daemon) connected() {
	d.mu.Lock()
	d.active++
	if d.idle != nil {
		d.idle.Stop()
	}
	d.mu.Unlock()
}

func (d *Daemon) disconnected() {
	d.mu.Lock()
	d.active--
	d.mu.Unlock()
	d.armIdle()
}

// armIdle starts the idle timer when nobody is connected.
func (d *Daemon) armIdle() {
	if d.opts.IdleTimeout <= 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.active > 0 {
		return
	}
	if d.idle != nil {
		d.idle.Stop()
	}
	d.idle = time.AfterFunc(d.opts.IdleTimeout, func() {
		d.mu.Lock()
		idle := d.active == 0
		d.mu.Unlock()
		if idle {
			d.log.Info("no clients; exiting after idle timeout", "idle_timeout", d.opts.IdleTimeout)
			d.stop()
		}
	})
}

func (d *Daemon) stopHandler(ctx context.Context, c *lsp.ControlCall) (any, error) {
	d.log.Info("stop requested by a client", "client", c.ClientID)
	// Stop accepting now: a client that connected during the shutdown would
	// lose its daemon a moment later. New clients start a new daemon, which
	// waits for this one's lock.
	d.ln.Close()
	go func() {
		time.Sleep(50 * time.Millisecond) // let the reply go out
		d.stop()
	}()
	return map[string]int{"pid": os.Getpid()}, nil
}

func (d *Daemon) statusHandler(ctx context.Context, c *lsp.ControlCall) (any, error) {
	return d.Status(ctx), nil
}

// decode is a helper for control handlers.
func decode(params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return nil
	}
	return json.Unmarshal(params, v)
}
