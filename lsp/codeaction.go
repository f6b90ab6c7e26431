package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/testsel"
	"github.com/aisbx/aisbx/internal/textpos"
)

// codeActionKindSandbox groups the "run in sandbox" actions.
const codeActionKindSandbox protocol.CodeActionKind = "source.aisbx.sandbox"

// CodeAction offers the fixes of the findings under the cursor or named by
// the request's diagnostics.
func (s *session) CodeAction(ctx context.Context, params *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	actions := []protocol.CodeAction{}
	path, err := uriToPath(params.TextDocument.URI)
	if err != nil {
		return actions, nil
	}
	c := s.checkedNow(ctx, path)
	if c == nil {
		return actions, nil
	}
	want := func(kind protocol.CodeActionKind) bool {
		if len(params.Context.Only) == 0 {
			return true
		}
		for _, k := range params.Context.Only {
			if k == kind || (len(kind) > len(k) && kind[:len(k)] == k && kind[len(k)] == '.') {
				return true
			}
		}
		return false
	}
	if want(protocol.QuickFix) {
		rs, _ := c.idx.OffsetUTF16(textpos.Position{Line: int(params.Range.Start.Line), Col: int(params.Range.Start.Character)})
		re, _ := c.idx.OffsetUTF16(textpos.Position{Line: int(params.Range.End.Line), Col: int(params.Range.End.Character)})
		named := map[int]protocol.Diagnostic{}
		for _, d := range params.Context.Diagnostics {
			if i, ok := diagIndex(d); ok {
				named[i] = d
			}
		}
		var allowlist []protocol.CodeAction
		for i, f := range c.findings {
			d, isNamed := named[i]
			if !isNamed && !(f.Start <= re && f.End >= rs) {
				continue
			}
			if !isNamed {
				d = findingDiagnostic(c.idx, f, i)
			}
			if f.Category == checks.CategorySecret && f.Fingerprint != "" {
				// Listed after the fixes: the edit is the better answer.
				allowlist = append(allowlist, protocol.CodeAction{
					Title: "Add this value to the aisbx.toml allowlist (by fingerprint)", Kind: protocol.QuickFix,
					Diagnostics: []protocol.Diagnostic{d},
					Command: &protocol.Command{Title: "Add to allowlist", Command: "aisbx.allowlistSecret",
						Arguments: []any{allowlistArgs{URI: params.TextDocument.URI, Fingerprint: f.Fingerprint, Rule: f.Rule}}},
				})
			}
			for _, fix := range f.Fixes {
				actions = append(actions, protocol.CodeAction{
					Title:       fix.Title,
					Kind:        protocol.QuickFix,
					Diagnostics: []protocol.Diagnostic{d},
					IsPreferred: fix.Preferred,
					Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{params.TextDocument.URI: textEdits(c.idx, fix.Edits)}},
				})
			}
		}
		actions = append(actions, allowlist...)
		actions = append(actions, reviewActions(params)...)
	}
	if want(codeActionKindSandbox) {
		actions = append(actions, s.sandboxActions(params, c.idx, len(params.Context.Only) > 0)...)
	}
	return actions, nil
}

// sandboxActions are the "run in sandbox" actions for a position. Without
// an "only" filter they carry no kind, so that editors list them in the
// Ctrl+. menu (clients hide source.* kinds there); asked for by kind, they
// carry source.aisbx.sandbox.
func (s *session) sandboxActions(params *protocol.CodeActionParams, idx *textpos.Index, byKind bool) []protocol.CodeAction {
	path, _ := uriToPath(params.TextDocument.URI)
	ws := s.workspaceFor(path)
	if ws == nil || ws.Root == "" {
		return nil
	}
	kind := protocol.CodeActionKind("")
	if byKind {
		kind = codeActionKindSandbox
	}
	uri := params.TextDocument.URI
	action := func(title, command string, args runArgs) protocol.CodeAction {
		return protocol.CodeAction{Title: title, Kind: kind,
			Command: &protocol.Command{Title: title, Command: command, Arguments: []any{args}}}
	}
	var out []protocol.CodeAction
	if tests, err := testsel.Discover(relTo(ws, path), idx.Text()); err == nil && len(tests) > 0 {
		off, _ := idx.OffsetUTF16(textpos.Position{Line: int(params.Range.Start.Line), Col: int(params.Range.Start.Character)})
		if t, ok := testsel.TestAt(tests, off); ok {
			out = append(out, action("Run this test in sandbox: "+t.Name(), "aisbx.runTest", runArgs{URI: uri, Test: testID(ws, t)}))
		}
		out = append(out, action("Run this file's tests in sandbox", "aisbx.runFile", runArgs{URI: uri}))
	} else {
		out = append(out, action("Run the tests of this file in sandbox", "aisbx.runFile", runArgs{URI: uri}))
	}
	out = append(out, action("Run affected tests in sandbox", "aisbx.runAffected", runArgs{URI: uri}))
	if r, err := ws.Runner(); err == nil && len(r.FailedTests()) > 0 {
		out = append(out, action("Re-run failed tests in sandbox", "aisbx.rerunFailed", runArgs{URI: uri}))
	}
	return out
}

// checkedNow returns the last check of an open document, checking it again
// when the text changed since (the engine's cache makes that cheap when it
// did not).
func (s *session) checkedNow(ctx context.Context, path string) *checked {
	doc, ok := s.docs.Get(path)
	if !ok {
		return nil
	}
	s.mu.Lock()
	var last *checked
	if d, ok := s.diags[path]; ok {
		last = d.last
	}
	s.mu.Unlock()
	if last != nil && last.version == doc.Version && string(last.text) == string(doc.Text) {
		return last
	}
	ws := s.workspaceFor(path)
	if ws == nil || path == ws.ConfigPath() {
		return nil
	}
	// Not checked yet at this version: answer from the fast checks rather
	// than make Ctrl+. wait for cold linters.
	f := checks.NewFile(ws.Root, path, doc.Text)
	f.OnDisk = !doc.Dirty
	res := ws.FastEngine().Run(ctx, f)
	return &checked{version: doc.Version, text: doc.Text, idx: textpos.NewIndex(doc.Text), findings: res.Findings}
}

// diagIndex reads the finding index aisbx put in a diagnostic's data.
func diagIndex(d protocol.Diagnostic) (int, bool) {
	if d.Source != "aisbx" || d.Data == nil {
		return 0, false
	}
	b, err := json.Marshal(d.Data)
	if err != nil {
		return 0, false
	}
	var data diagData
	if json.Unmarshal(b, &data) != nil {
		return 0, false
	}
	return data.Index, true
}

func textEdits(idx *textpos.Index, edits []checks.Edit) []protocol.TextEdit {
	out := make([]protocol.TextEdit, 0, len(edits))
	for _, e := range edits {
		out = append(out, protocol.TextEdit{Range: protocolRange(idx, e.Start, e.End), NewText: e.NewText})
	}
	return out
}
