package cli

import (
	"log/slog"
	"maps"
	"os"

	"github.com/aisbx/aisbx/lsp"
)

// controlHandlers are the daemon's aisbx/* requests beyond status and stop:
// the CLI and agent hooks reach the daemon's shared state through them.
func controlHandlers(log *slog.Logger) map[string]lsp.ControlHandler {
	h := map[string]lsp.ControlHandler{}
	if os.Getenv("AISBX_FAULT_INJECTION") == "1" {
		log.Warn("fault injection enabled: aisbx/debug/* methods misbehave on purpose")
		maps.Copy(h, lsp.FaultInjection())
	}
	return h
}
