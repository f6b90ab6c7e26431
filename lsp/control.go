package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
)

// ControlHandler answers an aisbx/* request from the CLI or an agent hook.
// Those connect to the daemon socket and send requests without the LSP
// lifecycle.
type ControlHandler func(ctx context.Context, c *ControlCall) (any, error)

// ControlCall is one aisbx/* request.
type ControlCall struct {
	Method   string
	Params   json.RawMessage
	ClientID string
	s        *session
}

// Notify sends a notification back to the caller, for streaming output.
func (c *ControlCall) Notify(method string, params any) error {
	return c.s.conn.Notify(c.s.ctx, method, params)
}

// sessionRequests are aisbx/* requests for initialized editor sessions.
func (s *session) sessionRequests() map[string]func(context.Context, json.RawMessage) (any, error) {
	return map[string]func(context.Context, json.RawMessage) (any, error){
		"aisbx/discoverTests": s.discoverTests,
	}
}

func (s *session) control(ctx context.Context, reply jsonrpc2.Replier, call *jsonrpc2.Call) error {
	if h, ok := s.sessionRequests()[call.Method()]; ok {
		if err := s.gate(call.Method()); err != nil {
			return reply(ctx, nil, err)
		}
		res, err := h(ctx, call.Params())
		return reply(ctx, res, err)
	}
	h, ok := s.opts.Control[call.Method()]
	if !ok {
		return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", call.Method()))
	}
	res, err := h(ctx, &ControlCall{Method: call.Method(), Params: call.Params(), ClientID: s.id, s: s})
	return reply(ctx, res, err)
}
