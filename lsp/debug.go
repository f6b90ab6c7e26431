package lsp

import (
	"context"
	"time"
)

// FaultInjection returns control methods that misbehave on purpose, so that
// tests of the built binary can check the session survives a panicking
// handler and honours $/cancelRequest. aisbxd registers them only when
// AISBX_FAULT_INJECTION=1.
//
//	aisbx/debug/panic  panics inside the handler
//	aisbx/debug/block  blocks until cancelled (or 60 s), then fails
func FaultInjection() map[string]ControlHandler {
	return map[string]ControlHandler{
		"aisbx/debug/panic": func(ctx context.Context, c *ControlCall) (any, error) {
			panic("fault injection: aisbx/debug/panic")
		},
		"aisbx/debug/block": func(ctx context.Context, c *ControlCall) (any, error) {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(60 * time.Second):
				return nil, context.DeadlineExceeded
			}
		},
	}
}
