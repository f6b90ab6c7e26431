// Command aisbxd is the aisbx daemon and CLI: the language server editors
// start, the shared per-user daemon behind it, and the commands for CI and
// terminals. All logic lives in internal/cli and the packages it wires.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/aisbx/aisbx/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.StdEnv())
	stop()
	os.Exit(code)
}
