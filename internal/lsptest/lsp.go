package lsptest

import (
	"context"
	"encoding/json"
	"net/url"
	"path/filepath"
)

// Position and Range mirror LSP's, 0-based, UTF-16 columns.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Diagnostic is the part of an LSP diagnostic tests look at.
type Diagnostic struct {
	Range           Range `json:"range"`
	Severity        int   `json:"severity"`
	Code            any   `json:"code"`
	CodeDescription *struct {
		Href string `json:"href"`
	} `json:"codeDescription"`
	Source  string          `json:"source"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// PublishDiagnostics is a textDocument/publishDiagnostics notification.
// RawDiagnostics keeps the wire form, to check it is an array and never null.
type PublishDiagnostics struct {
	URI            string          `json:"uri"`
	Version        int             `json:"version"`
	Diagnostics    []Diagnostic    `json:"diagnostics"`
	RawDiagnostics json.RawMessage `json:"-"`
}

// URI returns the file:// URI of a path.
func URI(path string) string {
	abs, _ := filepath.Abs(path)
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// Initialize sends initialize (with the given workspace folders) and
// initialized, and returns the server's capabilities.
func (c *Client) Initialize(ctx context.Context, roots ...string) (map[string]any, error) {
	folders := []map[string]string{}
	for _, r := range roots {
		folders = append(folders, map[string]string{"uri": URI(r), "name": filepath.Base(r)})
	}
	params := map[string]any{
		"processId":  nil,
		"clientInfo": map[string]string{"name": "lsptest", "version": "1"},
		"capabilities": map[string]any{
			"window":       map[string]any{"workDoneProgress": true, "showDocument": map[string]any{"support": true}},
			"workspace":    map[string]any{"applyEdit": true, "codeLens": map[string]any{"refreshSupport": true}, "workspaceFolders": true},
			"textDocument": map[string]any{"publishDiagnostics": map[string]any{"codeDescriptionSupport": true, "dataSupport": true}},
		},
		"workspaceFolders": folders,
	}
	if len(roots) > 0 {
		params["rootUri"] = URI(roots[0])
	}
	var res struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	if err := c.Call(ctx, "initialize", params, &res); err != nil {
		return nil, err
	}
	return res.Capabilities, c.Notify("initialized", map[string]any{})
}

// Open sends didOpen.
func (c *Client) Open(path, languageID, text string) error {
	return c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": URI(path), "languageId": languageID, "version": 1, "text": text,
	}})
}

// Change sends one incremental didChange.
func (c *Client) Change(path string, version int, r Range, text string) error {
	return c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": URI(path), "version": version},
		"contentChanges": []map[string]any{{"range": r, "text": text}},
	})
}

// ReplaceAll sends a full-text didChange.
func (c *Client) ReplaceAll(path string, version int, text string) error {
	return c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": URI(path), "version": version},
		"contentChanges": []map[string]any{{"text": text}},
	})
}

// Save sends didSave with the text.
// Save sends didSave, with the text unless it is empty.
func (c *Client) Save(path, text string) error {
	params := map[string]any{"textDocument": map[string]any{"uri": URI(path)}}
	if text != "" {
		params["text"] = text
	}
	return c.Notify("textDocument/didSave", params)
}

// CloseDoc sends didClose.
func (c *Client) CloseDoc(path string) error {
	return c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": URI(path)}})
}

// WaitDiagnostics waits for a publishDiagnostics for path that satisfies
// match, considering every one received so far.
func (c *Client) WaitDiagnostics(ctx context.Context, path string, match func(PublishDiagnostics) bool) (PublishDiagnostics, error) {
	return c.WaitDiagnosticsSince(ctx, 0, path, match)
}

// WaitDiagnosticsSince is WaitDiagnostics over notifications after mark.
func (c *Client) WaitDiagnosticsSince(ctx context.Context, mark int, path string, match func(PublishDiagnostics) bool) (PublishDiagnostics, error) {
	want := URI(path)
	var got PublishDiagnostics
	_, err := c.WaitNotificationSince(ctx, mark, "textDocument/publishDiagnostics", func(raw json.RawMessage) bool {
		var p PublishDiagnostics
		var wire struct {
			Diagnostics json.RawMessage `json:"diagnostics"`
		}
		if json.Unmarshal(raw, &p) != nil || json.Unmarshal(raw, &wire) != nil || p.URI != want {
			return false
		}
		p.RawDiagnostics = wire.Diagnostics
		if match == nil || match(p) {
			got = p
			return true
		}
		return false
	})
	return got, err
}

// Shutdown sends shutdown then exit.
func (c *Client) Shutdown(ctx context.Context) error {
	if err := c.Call(ctx, "shutdown", nil, nil); err != nil {
		return err
	}
	return c.Notify("exit", nil)
}
