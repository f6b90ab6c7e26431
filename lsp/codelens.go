package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// CodeLens lists the lenses of a document.
func (s *session) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	return []protocol.CodeLens{}, nil
}
