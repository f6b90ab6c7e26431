package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// CommandHandler runs one workspace/executeCommand command. args are the
// command's arguments, still encoded.
type CommandHandler func(ctx context.Context, s *session, params *protocol.ExecuteCommandParams, args []json.RawMessage) (any, error)

// builtinCommands are the commands every session offers. Every code action
// and lens that does work goes through one of these, so that any client can
// call them.
func (s *session) builtinCommands() map[string]CommandHandler {
	return map[string]CommandHandler{
		"aisbx.reloadConfig":    cmdReloadConfig,
		"aisbx.status":          cmdStatus,
		"aisbx.allowlistSecret": cmdAllowlistSecret,
		"aisbx.runAffected":     cmdRunAffected,
		"aisbx.runTest":         cmdRunTest,
		"aisbx.runFile":         cmdRunFile,
		"aisbx.rerunFailed":     cmdRerunFailed,
		"aisbx.lastRun":         cmdLastRun,
		"aisbx.openRunRecord":   cmdOpenRunRecord,
		"aisbx.markReviewed":    cmdMarkReviewed,
	}
}

// ExecuteCommand dispatches to the command's handler.
func (s *session) ExecuteCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (any, error) {
	h, ok := s.commands[params.Command]
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q", params.Command)
	}
	args := make([]json.RawMessage, len(params.Arguments))
	for i, a := range params.Arguments {
		b, err := json.Marshal(a)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "argument %d: %v", i, err)
		}
		args[i] = b
	}
	return h(ctx, s, params, args)
}

// cmdReloadConfig re-reads every workspace's config files.
func cmdReloadConfig(ctx context.Context, s *session, params *protocol.ExecuteCommandParams, args []json.RawMessage) (any, error) {
	n := 0
	for _, ws := range s.workspaces() {
		ws.ReloadConfig()
		if l := ws.Loaded(); l != nil && l.HasErrors() {
			s.showMessage(protocol.MessageTypeWarning, fmt.Sprintf("aisbx: %s has errors; the last good config stays in force", ws.ConfigPath()))
		}
		n++
	}
	return map[string]int{"reloaded": n}, nil
}

// decodeArg decodes the i-th command argument into v.
func decodeArg(args []json.RawMessage, i int, v any) error {
	if i >= len(args) {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "missing argument %d", i)
	}
	if err := json.Unmarshal(args[i], v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "argument %d: %v", i, err)
	}
	return nil
}
