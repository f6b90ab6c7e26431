package lsp

import (
	"context"
	"encoding/json"
	"time"

	"go.lsp.dev/protocol"

	"github.com/aisbx/aisbx/internal/documents"
	"github.com/aisbx/aisbx/internal/provenance"
	"github.com/aisbx/aisbx/internal/textpos"
)

// DidOpen stores the document and checks it at once.
func (s *session) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	path, err := uriToPath(params.TextDocument.URI)
	if err != nil {
		s.log.Debug("not checking document", "err", err)
		return nil
	}
	s.docs.Open(path, string(params.TextDocument.LanguageID), params.TextDocument.Version, []byte(params.TextDocument.Text))
	s.publishNow(path)
	return nil
}

// didChangeParams mirrors DidChangeTextDocumentParams with a pointer
// range: the library's Range is a value, so it cannot tell a full-text
// change (no range) from an insertion at 0:0.
type didChangeParams struct {
	TextDocument struct {
		URI     protocol.DocumentURI `json:"uri"`
		Version int32                `json:"version"`
	} `json:"textDocument"`
	ContentChanges []struct {
		Range *protocol.Range `json:"range"`
		Text  string          `json:"text"`
	} `json:"contentChanges"`
}

// didChange applies incremental edits and checks the document after the
// debounce delay. An edit that does not fit the document is logged and
// ignored: the document keeps its last good text.
func (s *session) didChange(params json.RawMessage) {
	var p didChangeParams
	if err := json.Unmarshal(params, &p); err != nil {
		s.log.Warn("ignored malformed didChange", "err", err)
		return
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return
	}
	changes := make([]documents.Change, len(p.ContentChanges))
	for i, c := range p.ContentChanges {
		changes[i].Text = c.Text
		if c.Range != nil {
			changes[i].Range = &documents.Range{
				Start: textpos.Position{Line: int(c.Range.Start.Line), Col: int(c.Range.Start.Character)},
				End:   textpos.Position{Line: int(c.Range.End.Line), Col: int(c.Range.End.Character)},
			}
		}
	}
	doc, err := s.docs.Change(path, p.TextDocument.Version, changes)
	if err != nil {
		s.log.Warn("ignored edit", "err", err)
		return
	}
	s.noteEdits(path, p, doc.Text)
	s.publishSoon(path)
}

// DidChange is never reached: didChange is decoded in handle (see
// didChangeParams).
func (s *session) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	s.log.Error("bug: didChange dispatched to the library")
	return nil
}

// DidSave checks the saved text at once, and reloads config when the file
// is a config file.
func (s *session) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	path, err := uriToPath(params.TextDocument.URI)
	if err != nil {
		return nil
	}
	var text []byte
	if params.Text != "" {
		text = []byte(params.Text)
	}
	s.docs.Saved(path, text)
	if doc, ok := s.docs.Get(path); ok {
		s.workspaceFor(path).NoteSaved(path, doc.Text)
	}
	for _, ws := range s.workspaces() {
		if path == ws.ConfigPath() {
			ws.ReloadConfig() // every session of the workspace republishes
		}
	}
	s.publishNow(path)
	return nil
}

// DidClose forgets the document and clears its diagnostics.
func (s *session) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) error {
	path, err := uriToPath(params.TextDocument.URI)
	if err != nil {
		return nil
	}
	s.docs.Close(path)
	s.clear(path)
	return nil
}

// noteEdits keeps AI provenance in step with the editor: recorded ranges
// move with the lines, and one change inserting many lines is marked as
// likely AI-written (a paste from a chat panel, an inline completion).
func (s *session) noteEdits(path string, p didChangeParams, text []byte) {
	ws := s.workspaceFor(path)
	if ws == nil || ws.Root == "" {
		return
	}
	minLines := ws.Config().Watch.AIInsertLines
	for _, c := range p.ContentChanges {
		if c.Range == nil {
			continue
		}
		lc := provenance.LineChangeFor(int(c.Range.Start.Line), int(c.Range.Start.Character),
			int(c.Range.End.Line), int(c.Range.End.Character), c.Text)
		ws.MapEdit(path, lc)
		if e, ok := provenance.LargeInsert(path, lc, minLines, time.Now()); ok {
			if _, err := ws.RecordEdit(e, text); err != nil {
				s.log.Debug("recording a large insert", "err", err)
			}
		}
	}
}
