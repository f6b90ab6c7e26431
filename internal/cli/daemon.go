package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/internal/daemon"
	"github.com/aisbx/aisbx/lsp"
)

// cmdDaemon runs the shared daemon in the foreground. `aisbxd serve` starts
// it on its own; run it by hand to watch its log with --log-file=-.
func cmdDaemon(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet("daemon", "daemon [--socket PATH] [--idle-timeout D]", env)
	socket := fs.String("socket", daemon.SocketPath(), "socket to listen on (env AISBX_SOCKET)")
	idle := config.Defaults().Daemon.IdleTimeout.D()
	if l := config.Load(""); l.Config != nil {
		idle = l.Config.Daemon.IdleTimeout.D()
	}
	idleTimeout := fs.Duration("idle-timeout", idle, "exit after this long without clients (0: never); default from daemon.idle_timeout")
	stop := fs.Bool("stop", false, "ask the running daemon to exit, and return")
	var lf logFlags
	lf.register(fs, env)
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if *stop {
		var res struct{ PID int }
		if err := daemon.Call(ctx, *socket, "aisbx/stop", nil, &res); err != nil {
			fmt.Fprintln(env.Stderr, "aisbxd daemon --stop:", err)
			return ExitFailure
		}
		fmt.Fprintf(env.Stdout, "asked daemon (pid %d) to stop\n", res.PID)
		return ExitOK
	}
	log, closer, err := lf.open("daemon", env)
	if err != nil {
		fmt.Fprintln(env.Stderr, "aisbxd daemon:", err)
		return ExitUsage
	}
	defer closer.Close()
	err = daemon.Run(ctx, daemon.Options{
		Socket: *socket, IdleTimeout: *idleTimeout, Logger: log, NewEngine: engineFactory,
		Control: func(d *daemon.Daemon) map[string]lsp.ControlHandler { return daemonControl(d, log) },
		Started: reapOrphans(log),
	})
	switch {
	case errors.Is(err, daemon.ErrAlreadyRunning):
		fmt.Fprintf(env.Stderr, "aisbxd daemon: already running (pid %d) on %s\n", daemon.LockHolder(*socket), *socket)
		return ExitOK
	case err != nil:
		log.Error("daemon failed", "err", err)
		fmt.Fprintln(env.Stderr, "aisbxd daemon:", err)
		return ExitInternal
	}
	return ExitOK
}
