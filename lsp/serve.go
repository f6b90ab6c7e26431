package lsp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/aisbx/aisbx/internal/documents"
	"github.com/aisbx/aisbx/internal/workspace"
)

// Options configures a session.
type Options struct {
	// Registry is shared by every session of the process: the daemon passes
	// its own, so that workspaces exist once per user.
	Registry *workspace.Registry
	Logger   *slog.Logger
	// ClientID names the connection in logs and status; "" generates one.
	ClientID string
	// Control answers aisbx/* requests (status, run, hook) that the CLI and
	// agent hooks send over the daemon socket without initializing.
	Control map[string]ControlHandler
	// Shared says the session runs in the shared daemon (for status).
	Shared bool
	// Started is when the serving process started; zero means now.
	Started time.Time
}

// Serve runs one LSP session on rwc until the client sends exit, the stream
// ends, or ctx is done, and returns the exit code the spec asks for: 0 after
// shutdown then exit, 1 otherwise. It closes rwc before returning.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) int {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.ClientID == "" {
		opts.ClientID = newID()
	}
	if opts.Started.IsZero() {
		opts.Started = time.Now()
	}
	if opts.Registry == nil {
		opts.Registry = workspace.NewRegistry(ctx, workspace.Options{Logger: opts.Logger})
		defer opts.Registry.Close()
	}
	log := opts.Logger.With("client", opts.ClientID)
	st := newStream(rwc, log)
	conn := jsonrpc2.NewConn(st)
	sctx, cancel := context.WithCancel(ctx)
	s := &session{
		id:       opts.ClientID,
		opts:     opts,
		log:      log,
		conn:     conn,
		stream:   st,
		ctx:      sctx,
		cancel:   cancel,
		reg:      opts.Registry,
		docs:     documents.NewStore(),
		exited:   make(chan struct{}),
		inflight: map[jsonrpc2.ID]context.CancelFunc{},
		diags:    map[string]*diagState{},
		folders:  map[string]*folder{},
		progress: map[string]context.CancelFunc{},
		started:  time.Now(),
	}
	s.commands = s.builtinCommands()
	conn.Go(sctx, s.handle)

	code := 1
	select {
	case <-s.exited:
		code = s.exitCode()
	case <-conn.Done():
		log.Info("client stream ended", "err", conn.Err())
	case <-ctx.Done():
	}
	s.close()
	_ = conn.Close()
	// Closing os.Stdin does not unblock a pending read of it, so do not wait
	// for the reader forever: the process is about to exit anyway. Sockets
	// and pipes do unblock, and return at once.
	select {
	case <-conn.Done():
	case <-time.After(time.Second):
		log.Debug("stream reader still blocked after close; leaving it")
	}
	log.Info("session ended", "exit_code", code)
	return code
}

func newID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
