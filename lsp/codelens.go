package lsp

import (
	"context"
	"fmt"
	"time"

	"go.lsp.dev/protocol"

	"github.com/aisbx/aisbx/internal/testresults"
	"github.com/aisbx/aisbx/internal/textpos"
)

// CodeLens puts "▶ Run in sandbox" above each test, and its last result
// next to it.
func (s *session) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	lenses := []protocol.CodeLens{}
	path, err := uriToPath(params.TextDocument.URI)
	if err != nil {
		return lenses, nil
	}
	ws := s.workspaceFor(path)
	if ws == nil || ws.Root == "" {
		return lenses, nil
	}
	tests, content, err := s.discover(ws, path)
	if err != nil || len(tests) == 0 {
		return lenses, nil
	}
	idx := textpos.NewIndex(content)
	for _, t := range tests {
		line := idx.LineOf(t.NameStart)
		r := protocolRange(idx, idx.LineStart(line), idx.LineStart(line))
		id := testID(ws, t)
		args := []any{runArgs{URI: params.TextDocument.URI, Test: id}}
		lenses = append(lenses, protocol.CodeLens{Range: r, Command: &protocol.Command{
			Title: "▶ Run in sandbox", Command: "aisbx.runTest", Arguments: args}})
		st, ok := ws.TestState(ws.TestUnit(t.File), t.ResultName())
		if !ok {
			continue
		}
		lenses = append(lenses, protocol.CodeLens{Range: r, Command: &protocol.Command{
			Title: resultTitle(st.Status, st.Duration), Command: "aisbx.openRunRecord",
			Arguments: []any{runArgs{URI: params.TextDocument.URI, ID: st.RunID}}}})
	}
	return lenses, nil
}

func resultTitle(status testresults.Status, d time.Duration) string {
	switch status {
	case testresults.StatusPassed:
		return fmt.Sprintf("✓ %.2fs", d.Seconds())
	case testresults.StatusFailed:
		return "✗ failed"
	case testresults.StatusSkipped:
		return "○ skipped"
	}
	return "? interrupted"
}
