package lsptest

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Target is an aisbx LSP server reachable some way: over a pipe, a child
// process's stdio, or the daemon socket through the forwarder.
type Target struct {
	// Start returns a client connected to a fresh session. The server must
	// have the fault-injection control methods (lsp.FaultInjection).
	Start func(t *testing.T) *Client
	// ExitCode waits for the session (or process) to end and returns its
	// exit code; nil when the transport has none to observe.
	ExitCode func(t *testing.T, c *Client) int
}

// Conformance runs the LSP behaviours every aisbx transport must show: the
// capabilities, the lifecycle and its exit codes, unknown methods, malformed
// input, panics, cancellation with numeric and string ids, UTF-16 positions
// with CRLF and a missing final newline, incremental edits (bad ones
// ignored), [] never null, clearing on close, and config reload on save.
func Conformance(t *testing.T, target Target) {
	t.Run("capabilities", func(t *testing.T) {
		c := target.Start(t)
		caps := initialize(t, c, t.TempDir())
		sync, _ := caps["textDocumentSync"].(map[string]any)
		if sync["change"] != float64(2) || sync["openClose"] != true {
			t.Errorf("textDocumentSync = %v", sync)
		}
		if save, ok := sync["save"].(map[string]any); !ok || save["includeText"] == true {
			t.Errorf("save = %v: want save notifications, without the text (buffers are known)", sync["save"])
		}
		ca, _ := caps["codeActionProvider"].(map[string]any)
		kinds, _ := json.Marshal(ca["codeActionKinds"])
		if !strings.Contains(string(kinds), `"quickfix"`) || !strings.Contains(string(kinds), `"source"`) {
			t.Errorf("codeActionKinds = %s", kinds)
		}
		for _, k := range []string{"executeCommandProvider", "codeLensProvider", "workspace"} {
			if caps[k] == nil {
				t.Errorf("%s missing", k)
			}
		}
		wf, _ := caps["workspace"].(map[string]any)["workspaceFolders"].(map[string]any)
		if wf["supported"] != true || wf["changeNotifications"] != true {
			t.Errorf("workspaceFolders = %v", wf)
		}
	})

	t.Run("lifecycle", func(t *testing.T) {
		c := target.Start(t)
		ctx := testCtx(t)
		if err := c.Call(ctx, "textDocument/codeLens", map[string]any{}, nil); code(err) != -32002 {
			t.Errorf("before initialize: %v, want -32002", err)
		}
		initialize(t, c, t.TempDir())
		if err := c.Call(ctx, "shutdown", nil, nil); err != nil {
			t.Fatal(err)
		}
		if err := c.Call(ctx, "textDocument/codeLens", map[string]any{}, nil); code(err) != -32600 {
			t.Errorf("after shutdown: %v, want -32600", err)
		}
		c.Notify("exit", nil)
		if target.ExitCode != nil {
			if got := target.ExitCode(t, c); got != 0 {
				t.Errorf("exit code after shutdown+exit = %d, want 0", got)
			}
		}
	})

	if target.ExitCode != nil {
		t.Run("exit without shutdown", func(t *testing.T) {
			c := target.Start(t)
			initialize(t, c, t.TempDir())
			c.Notify("exit", nil)
			if got := target.ExitCode(t, c); got != 1 {
				t.Errorf("exit code = %d, want 1", got)
			}
		})
	}

	t.Run("unknown methods", func(t *testing.T) {
		c := target.Start(t)
		ctx := testCtx(t)
		initialize(t, c, t.TempDir())
		for _, m := range []string{"custom/nothing", "textDocument/hover", "aisbx/nope"} {
			if err := c.Call(ctx, m, nil, nil); code(err) != -32601 {
				t.Errorf("%s: %v, want -32601", m, err)
			}
		}
		c.Notify("custom/unknown-notification", map[string]int{"x": 1})
		alive(t, c)
	})

	t.Run("malformed input", func(t *testing.T) {
		c := target.Start(t)
		ctx := testCtx(t)
		initialize(t, c, t.TempDir())
		c.WriteRaw([]byte("\x00\xffgarbage\r\n\r\nContent-Length: nope\r\n\r\n"))
		c.WriteFrame([]byte(`{"jsonrpc":"2.0","id":9,"method":`))
		if m, err := c.WaitUnmatched(ctx, func(m Message) bool { return string(m.ID) == "null" }); err != nil || m.Error == nil || m.Error.Code != -32700 {
			t.Errorf("invalid JSON: %+v, %v; want -32700", m, err)
		}
		c.WriteFrame([]byte(`{"jsonrpc":"1.0","id":"v1","method":"shutdown"}`))
		if m, err := c.WaitUnmatched(ctx, func(m Message) bool { return string(m.ID) == `"v1"` }); err != nil || m.Error == nil || m.Error.Code != -32600 {
			t.Errorf("invalid request: %+v, %v; want -32600", m, err)
		}
		alive(t, c)
	})

	t.Run("panic in handler", func(t *testing.T) {
		c := target.Start(t)
		initialize(t, c, t.TempDir())
		if err := c.Call(testCtx(t), "aisbx/debug/panic", nil, nil); code(err) != -32603 {
			t.Errorf("panicking handler: %v, want -32603", err)
		}
		alive(t, c)
	})

	t.Run("cancel numeric and string ids", func(t *testing.T) {
		c := target.Start(t)
		ctx := testCtx(t)
		initialize(t, c, t.TempDir())
		for _, id := range []string{`77`, `"cancel-me"`} {
			errc := make(chan error, 1)
			go func() { errc <- c.CallID(ctx, json.RawMessage(id), "aisbx/debug/block", nil, nil) }()
			// The request may not have arrived yet: keep cancelling until it ends.
			tick := time.NewTicker(20 * time.Millisecond)
			var err error
		wait:
			for {
				c.Notify("$/cancelRequest", map[string]json.RawMessage{"id": json.RawMessage(id)})
				select {
				case err = <-errc:
					break wait
				case <-tick.C:
				}
			}
			tick.Stop()
			if code(err) != -32800 {
				t.Errorf("id %s: %v, want -32800", id, err)
			}
		}
	})

	t.Run("utf16 positions", func(t *testing.T) {
		root := t.TempDir()
		c := target.Start(t)
		initialize(t, c, root)
		cfg := filepath.Join(root, "aisbx.toml")
		tests := []struct{ name, text string }{
			{"lf", "[lsp]\n\"😀x\" = 1\n"},
			{"crlf", "[lsp]\r\n\"😀x\" = 1\r\n"},
			{"no final newline", "[lsp]\n\"😀x\" = 1"},
		}
		for i, tt := range tests {
			mark := c.Mark()
			if i == 0 {
				c.Open(cfg, "toml", tt.text)
			} else {
				c.ReplaceAll(cfg, i+1, tt.text)
			}
			p, err := c.WaitDiagnosticsSince(testCtx(t), mark, cfg, func(p PublishDiagnostics) bool { return len(p.Diagnostics) > 0 })
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			// The key starts after the quote (1) and is an emoji (2 units) + x.
			want := Range{Start: Position{1, 1}, End: Position{1, 4}}
			if p.Diagnostics[0].Range != want {
				t.Errorf("%s: range = %+v, want %+v", tt.name, p.Diagnostics[0].Range, want)
			}
			d := p.Diagnostics[0]
			if d.Source != "aisbx" || d.Code == nil || d.CodeDescription == nil {
				t.Errorf("%s: diagnostic lacks source/code/codeDescription: %+v", tt.name, d)
			}
		}
	})

	t.Run("incremental edits and close", func(t *testing.T) {
		root := t.TempDir()
		c := target.Start(t)
		ctx := testCtx(t)
		initialize(t, c, root)
		cfg := filepath.Join(root, "aisbx.toml")
		c.Open(cfg, "toml", "[lsp]\ndebounce = \"100ms\"\n")
		if p, err := c.WaitDiagnostics(ctx, cfg, nil); err != nil || string(p.RawDiagnostics) != "[]" {
			t.Fatalf("clean file: %s, %v; want [] (never null)", p.RawDiagnostics, err)
		}
		// Insert at 0:0 (not a full replace) a line the schema does not know.
		c.Change(cfg, 2, Range{}, "bogus = 1\n")
		p, err := c.WaitDiagnostics(ctx, cfg, func(p PublishDiagnostics) bool { return p.Version == 2 })
		if err != nil || len(p.Diagnostics) != 1 || p.Diagnostics[0].Range.Start != (Position{0, 0}) {
			t.Fatalf("after insert at 0:0: %+v, %v", p, err)
		}
		// Out-of-range edits and edits to unknown documents are ignored.
		c.Change(cfg, 3, Range{Start: Position{50, 0}, End: Position{50, 2}}, "x")
		c.Change(filepath.Join(root, "never-opened.toml"), 1, Range{}, "x")
		mark := c.Mark()
		c.Change(cfg, 4, Range{Start: Position{0, 0}, End: Position{0, 0}}, "\n")
		p, err = c.WaitDiagnosticsSince(ctx, mark, cfg, func(p PublishDiagnostics) bool { return p.Version == 4 })
		if err != nil || len(p.Diagnostics) != 1 || p.Diagnostics[0].Range.Start.Line != 1 {
			t.Fatalf("after a bad edit and a good one: %+v, %v", p, err)
		}
		mark = c.Mark()
		c.CloseDoc(cfg)
		if p, err := c.WaitDiagnosticsSince(ctx, mark, cfg, nil); err != nil || string(p.RawDiagnostics) != "[]" {
			t.Fatalf("after close: %s, %v", p.RawDiagnostics, err)
		}
	})

	t.Run("config reload on save keeps last good", func(t *testing.T) {
		root := t.TempDir()
		cfg := filepath.Join(root, "aisbx.toml")
		bad := "[sandbox]\npool_sise = 3\n"
		os.WriteFile(cfg, []byte(bad), 0o644)
		c := target.Start(t)
		ctx := testCtx(t)
		initialize(t, c, root)
		if _, err := c.WaitDiagnostics(ctx, cfg, func(p PublishDiagnostics) bool { return len(p.Diagnostics) == 1 }); err != nil {
			t.Fatalf("unopened config with an unknown key: %v", err)
		}
		c.Open(cfg, "toml", bad)
		good := "[sandbox]\npool_size = 3\n"
		os.WriteFile(cfg, []byte(good), 0o644)
		mark := c.Mark()
		c.ReplaceAll(cfg, 2, good)
		c.Save(cfg, good)
		if _, err := c.WaitDiagnosticsSince(ctx, mark, cfg, func(p PublishDiagnostics) bool { return len(p.Diagnostics) == 0 }); err != nil {
			t.Fatalf("fixed config not cleared: %v", err)
		}
		broken := "[sandbox\n"
		os.WriteFile(cfg, []byte(broken), 0o644)
		mark = c.Mark()
		c.ReplaceAll(cfg, 3, broken)
		c.Save(cfg, broken)
		p, err := c.WaitDiagnosticsSince(ctx, mark, cfg, func(p PublishDiagnostics) bool { return len(p.Diagnostics) > 0 })
		if err != nil || p.Diagnostics[0].Severity != 1 {
			t.Fatalf("syntax error not reported: %+v, %v", p, err)
		}
	})
}

func initialize(t *testing.T, c *Client, root string) map[string]any {
	t.Helper()
	caps, err := c.Initialize(testCtx(t), root)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return caps
}

// alive checks the session still answers.
func alive(t *testing.T, c *Client) {
	t.Helper()
	if err := c.Call(testCtx(t), "workspace/executeCommand", map[string]any{"command": "aisbx.reloadConfig"}, nil); err != nil {
		t.Fatalf("session no longer answers: %v", err)
	}
}

func code(err error) int {
	var e *RPCError
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
