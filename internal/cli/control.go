package cli

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"os"

	"github.com/aisbx/aisbx/internal/daemon"
	"github.com/aisbx/aisbx/lsp"
	"github.com/aisbx/aisbx/sandbox"
)

// controlHandlers are the aisbx/* requests every server answers (only the
// fault-injection ones, when enabled).
func controlHandlers(log *slog.Logger) map[string]lsp.ControlHandler {
	h := map[string]lsp.ControlHandler{}
	if os.Getenv("AISBX_FAULT_INJECTION") == "1" {
		log.Warn("fault injection enabled: aisbx/debug/* methods misbehave on purpose")
		maps.Copy(h, lsp.FaultInjection())
	}
	return h
}

// daemonControl are the daemon's aisbx/* requests beyond status and stop:
// the CLI and agent hooks reach the daemon's shared state through them.
func daemonControl(d *daemon.Daemon, log *slog.Logger) map[string]lsp.ControlHandler {
	h := controlHandlers(log)
	h["aisbx/run"] = runControl(d, log)
	h["aisbx/hook"] = hookControl(d)
	h["aisbx/watch"] = watchControl(d)
	return h
}

// reapOrphans removes the sandbox containers of daemons that crashed.
func reapOrphans(log *slog.Logger) func(ctx context.Context, d *daemon.Daemon) {
	return func(ctx context.Context, d *daemon.Daemon) {
		sb, err := sandbox.New(ctx, sandbox.Options{PoolSize: -1, DaemonID: d.ID(), Logger: log})
		if err != nil {
			log.Warn("cannot reap orphans", "err", err)
			return
		}
		defer sb.Close(context.WithoutCancel(ctx))
		n, err := sb.Reap(ctx)
		switch {
		case errors.Is(err, sandbox.ErrEngineUnreachable):
			log.Info("no engine to reap orphans from", "err", err)
		case err != nil:
			log.Warn("reaping orphans", "err", err)
		case n > 0:
			log.Info("reaped orphan sandbox containers of a crashed daemon", "count", n)
		}
	}
}
