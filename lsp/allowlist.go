package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/internal/textpos"
)

type allowlistArgs struct {
	URI         protocol.DocumentURI `json:"uri"`
	Fingerprint string               `json:"fingerprint"`
	Rule        string               `json:"rule"`
}

// cmdAllowlistSecret adds a secret's fingerprint (never the value) to the
// workspace's aisbx.toml through workspace/applyEdit, so the change shows in
// the editor and can be undone. The config reloads when the user saves.
func cmdAllowlistSecret(ctx context.Context, s *session, params *protocol.ExecuteCommandParams, args []json.RawMessage) (any, error) {
	var a allowlistArgs
	if err := decodeArg(args, 0, &a); err != nil {
		return nil, err
	}
	path, err := uriToPath(a.URI)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
	}
	ws := s.workspaceFor(path)
	cfgPath := ws.ConfigPath()
	if cfgPath == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s is outside every workspace folder: there is no aisbx.toml to allowlist it in", path)
	}
	var data []byte
	exists := true
	if doc, open := s.docs.Get(cfgPath); open {
		data = doc.Text
	} else if data, err = os.ReadFile(cfgPath); errors.Is(err, os.ErrNotExist) {
		exists, data = false, nil
	} else if err != nil {
		return nil, fmt.Errorf("reading %s: %w", cfgPath, err)
	}
	ins, err := config.AddAllowlistFingerprint(cfgPath, data, a.Fingerprint)
	if err != nil {
		s.showMessage(protocol.MessageTypeWarning, "aisbx: "+err.Error())
		return nil, nil
	}
	idx := textpos.NewIndex(data)
	edit := protocol.TextEdit{Range: protocolRange(idx, ins.Offset, ins.Offset), NewText: ins.Text}
	uri := pathToURI(cfgPath)
	var we protocol.WorkspaceEdit
	switch {
	case exists:
		we.Changes = map[protocol.DocumentURI][]protocol.TextEdit{uri: {edit}}
	case s.clientCaps().createFiles:
		// Built by hand below: the library's DocumentChanges cannot hold a
		// CreateFile operation.
	default:
		// The client cannot create files through an edit: write it.
		if err := os.WriteFile(cfgPath, []byte(ins.Text), 0o644); err != nil {
			return nil, fmt.Errorf("creating %s: %w", cfgPath, err)
		}
		ws.ReloadConfig()
		s.showMessage(protocol.MessageTypeInfo, fmt.Sprintf("aisbx: created %s with the fingerprint of this %s", cfgPath, a.Rule))
		return nil, nil
	}
	var applyParams any = &protocol.ApplyWorkspaceEditParams{Label: "aisbx: allowlist " + a.Rule, Edit: we}
	if !exists {
		applyParams = map[string]any{"label": "aisbx: allowlist " + a.Rule, "edit": map[string]any{"documentChanges": []any{
			map[string]any{"kind": "create", "uri": uri, "options": map[string]bool{"ignoreIfExists": true}},
			map[string]any{"textDocument": map[string]any{"uri": uri, "version": nil}, "edits": []protocol.TextEdit{edit}},
		}}}
	}
	var res protocol.ApplyWorkspaceEditResponse
	if err := s.call(ctx, protocol.MethodWorkspaceApplyEdit, applyParams, &res); err != nil {
		return nil, fmt.Errorf("applying the allowlist edit: %w", err)
	}
	if !res.Applied {
		s.showMessage(protocol.MessageTypeWarning, "aisbx: the editor did not apply the allowlist edit: "+res.FailureReason)
	}
	return nil, nil
}
