package lsp_test

import (
	"context"
	"net"
	"path/filepath"
	"testing"

	"github.com/aisbx/aisbx/internal/lsptest"
	"github.com/aisbx/aisbx/internal/testlog"
	"github.com/aisbx/aisbx/internal/workspace"
	"github.com/aisbx/aisbx/lsp"
)

// TestConformancePipe runs the transport-independent LSP suite over an
// in-memory pipe; cmd/aisbxd runs the same suite over the binary's stdio and
// over the daemon socket.
func TestConformancePipe(t *testing.T) {
	t.Setenv("AISBX_CONFIG", filepath.Join(t.TempDir(), "none.toml"))
	codes := map[*lsptest.Client]chan int{}
	lsptest.Conformance(t, lsptest.Target{
		Start: func(t *testing.T) *lsptest.Client {
			log := testlog.New(t)
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			reg := workspace.NewRegistry(ctx, workspace.Options{Logger: log})
			t.Cleanup(reg.Close)
			server, client := net.Pipe()
			c := lsptest.New(client)
			t.Cleanup(func() { c.Close() })
			ch := make(chan int, 1)
			codes[c] = ch
			go func() {
				ch <- lsp.Serve(ctx, server, lsp.Options{Registry: reg, Logger: log, Control: lsp.FaultInjection()})
			}()
			return c
		},
		ExitCode: func(t *testing.T, c *lsptest.Client) int { return <-codes[c] },
	})
}
