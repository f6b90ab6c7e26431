package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/aisbx/aisbx/internal/provenance"
	"github.com/aisbx/aisbx/internal/textpos"
	"github.com/aisbx/aisbx/internal/workspace"
)

const reviewDocURL = "https://github.com/aisbx/aisbx/blob/main/docs/agents.md#review-markers"

// reviewDiagnostics mark the AI-written ranges of a file nobody marked
// reviewed yet, as information.
func reviewDiagnostics(ws *workspace.Workspace, path string, idx *textpos.Index) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, e := range ws.Unreviewed(path) {
		for _, r := range e.Ranges {
			if r.Start >= idx.LineCount() {
				continue
			}
			end := min(r.End, idx.LineCount()) - 1
			out = append(out, protocol.Diagnostic{
				Range:    protocolRange(idx, idx.LineStart(r.Start), idx.LineEnd(max(end, r.Start))),
				Severity: protocol.DiagnosticSeverityInformation, Code: "ai-unreviewed", Source: "aisbx",
				CodeDescription: &protocol.CodeDescription{Href: uri.URI(reviewDocURL)},
				Message:         reviewMessage(e),
				Data:            map[string]string{"edit": e.ID},
			})
		}
	}
	return out
}

func reviewMessage(e provenance.Edit) string {
	who := string(e.Tool)
	if e.Model != "" {
		who += ", " + e.Model
	}
	how := "reported by its hook"
	switch e.Source {
	case provenance.SourceExternalWrite:
		how = "likely: written to disk by another program"
	case provenance.SourceLargeInsert:
		how = "likely: one large insertion"
	case provenance.SourceGitAI, provenance.SourceAgentTrace:
		how = "from " + string(e.Source)
	}
	return fmt.Sprintf("AI-written (%s; %s): not reviewed yet. Use \"Mark reviewed\" once you have read it.", who, how)
}

type reviewArgs struct {
	URI   protocol.DocumentURI `json:"uri"`
	Range *protocol.Range      `json:"range"`
}

// cmdMarkReviewed marks the AI edits under a range (the whole file without
// one) reviewed.
func cmdMarkReviewed(ctx context.Context, s *session, params *protocol.ExecuteCommandParams, args []json.RawMessage) (any, error) {
	var a reviewArgs
	if err := decodeArg(args, 0, &a); err != nil {
		return nil, err
	}
	path, err := uriToPath(a.URI)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
	}
	ws := s.workspaceFor(path)
	var ids []string
	for _, e := range ws.Unreviewed(path) {
		if a.Range == nil || overlaps(e.Ranges, int(a.Range.Start.Line), int(a.Range.End.Line)) {
			ids = append(ids, e.ID)
		}
	}
	if len(ids) == 0 {
		return map[string]int{"reviewed": 0}, nil
	}
	if err := ws.MarkReviewed(ids...); err != nil {
		return nil, err
	}
	return map[string]int{"reviewed": len(ids)}, nil
}

func overlaps(rs []provenance.Range, first, last int) bool {
	for _, r := range rs {
		if r.Start <= last && first < r.End {
			return true
		}
	}
	return false
}

// reviewActions offers "Mark reviewed" on unreviewed AI ranges.
func reviewActions(params *protocol.CodeActionParams) []protocol.CodeAction {
	var out []protocol.CodeAction
	for _, d := range params.Context.Diagnostics {
		if d.Code != "ai-unreviewed" {
			continue
		}
		r := d.Range
		out = append(out, protocol.CodeAction{Title: "Mark AI edit reviewed", Kind: protocol.QuickFix,
			Diagnostics: []protocol.Diagnostic{d},
			Command: &protocol.Command{Title: "Mark reviewed", Command: "aisbx.markReviewed",
				Arguments: []any{reviewArgs{URI: params.TextDocument.URI, Range: &r}}}})
	}
	return out
}
