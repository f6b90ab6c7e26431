package cli

import (
	"context"
	"fmt"
	"io"
	"net"

	"github.com/aisbx/aisbx/internal/daemon"
	"github.com/aisbx/aisbx/internal/workspace"
	"github.com/aisbx/aisbx/lsp"
)

// cmdServe speaks LSP on stdin/stdout. By default it forwards to the user's
// shared daemon, starting it when needed; --standalone serves in-process.
func cmdServe(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet("serve", "serve [--stdio] [--standalone] [--socket PATH]", env)
	_ = fs.Bool("stdio", true, "speak LSP on stdin/stdout (the only transport; accepted because vscode-languageclient passes it)")
	standalone := fs.Bool("standalone", env.Getenv("AISBX_STANDALONE") == "1", "serve in this process instead of the shared daemon (env AISBX_STANDALONE=1)")
	socket := fs.String("socket", daemon.SocketPath(), "the daemon's socket (env AISBX_SOCKET)")
	var lf logFlags
	lf.register(fs, env)
	if code := parse(fs, args); code >= 0 {
		return code
	}
	log, closer, err := lf.open("serve", env)
	if err != nil {
		fmt.Fprintln(env.Stderr, "aisbxd serve:", err)
		return ExitUsage
	}
	defer closer.Close()
	stdio := stdioConn{r: env.Stdin, w: env.Stdout}

	if !*standalone {
		start := daemon.StartOptions{Args: lf.args()}
		conn, err := daemon.Connect(ctx, *socket, start)
		if err == nil {
			log.Info("forwarding to daemon", "socket", *socket)
			redial := func() (net.Conn, error) { return daemon.Connect(ctx, *socket, start) }
			return daemon.Forward(conn, redial, env.Stdin, env.Stdout, log)
		}
		// Still give the editor a working server, just not a shared one.
		log.Error("cannot reach or start the daemon; serving standalone", "err", err)
	}
	reg := workspace.NewRegistry(ctx, workspace.Options{Logger: log, NewEngine: engineFactory, Watch: true})
	defer reg.Close()
	return lsp.Serve(ctx, stdio, lsp.Options{Registry: reg, Logger: log, Control: controlHandlers(log)})
}

// stdioConn joins stdin and stdout into the stream Serve takes.
type stdioConn struct {
	r io.Reader
	w io.Writer
}

func (c stdioConn) Read(p []byte) (int, error)  { return c.r.Read(p) }
func (c stdioConn) Write(p []byte) (int, error) { return c.w.Write(p) }
func (c stdioConn) Close() error {
	if cl, ok := c.r.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}
