package lsp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/internal/lsptest"
	"github.com/aisbx/aisbx/internal/testlog"
	"github.com/aisbx/aisbx/internal/workspace"
	"github.com/aisbx/aisbx/lsp"
)

// leakCheck is a small real check for exercising the LSP face: it flags the
// token LEAKED-TOKEN and offers a fix that replaces it with an env lookup.
type leakCheck struct{}

const leakToken = "LEAKED-TOKEN"

func (leakCheck) Name() string                { return "leak" }
func (leakCheck) Applies(f *checks.File) bool { return true }
func (leakCheck) Run(ctx context.Context, f *checks.File) ([]checks.Finding, error) {
	var out []checks.Finding
	s := string(f.Content)
	for off := 0; ; {
		i := strings.Index(s[off:], leakToken)
		if i < 0 {
			return out, nil
		}
		start := off + i
		out = append(out, checks.Finding{
			Rule: "test-leak", Category: checks.CategorySecret, Severity: checks.SeverityError,
			Message: "leaked token", Start: start, End: start + len(leakToken), DocURL: checks.RuleDocURL("test-leak"),
			Fixes: []checks.Fix{{Title: "Use $TOKEN", Preferred: true, Edits: []checks.Edit{{Start: start, End: start + len(leakToken), NewText: "$TOKEN"}}}},
		})
		off = start + len(leakToken)
	}
}

type harness struct {
	c    *lsptest.Client
	exit chan int
	ctx  context.Context
}

func newHarness(t *testing.T, control map[string]lsp.ControlHandler) *harness {
	t.Helper()
	t.Setenv("AISBX_CONFIG", filepath.Join(t.TempDir(), "none.toml"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	log := testlog.New(t)
	reg := workspace.NewRegistry(ctx, workspace.Options{
		Logger: log,
		// Like checks/builtin, the factory honours checks.enabled: the
		// leak check stands in for the in-process checks.
		NewEngine: func(root string, cfg *config.Config) (*checks.Engine, error) {
			if !slices.Contains(cfg.Checks.Enabled, "secrets") {
				return checks.NewEngine(checks.Options{}), nil
			}
			return checks.NewEngine(checks.Options{}, leakCheck{}), nil
		},
	})
	t.Cleanup(reg.Close)
	server, client := net.Pipe()
	h := &harness{c: lsptest.New(client), exit: make(chan int, 1), ctx: ctx}
	go func() { h.exit <- lsp.Serve(ctx, server, lsp.Options{Registry: reg, Control: control, Logger: log}) }()
	t.Cleanup(func() { h.c.Close() })
	return h
}

func (h *harness) init(t *testing.T, roots ...string) map[string]any {
	t.Helper()
	caps, err := h.c.Initialize(h.ctx, roots...)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return caps
}

func rpcCode(err error) int {
	var e *lsptest.RPCError
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

func TestInitializeAdvertisesCapabilities(t *testing.T) {
	h := newHarness(t, nil)
	caps := h.init(t, t.TempDir())
	b, _ := json.Marshal(caps)
	var c struct {
		PositionEncoding string `json:"positionEncoding"`
		TextDocumentSync struct {
			OpenClose bool `json:"openClose"`
			Change    int  `json:"change"`
			Save      struct {
				IncludeText bool `json:"includeText"`
			} `json:"save"`
		} `json:"textDocumentSync"`
		CodeActionProvider struct {
			CodeActionKinds []string `json:"codeActionKinds"`
		} `json:"codeActionProvider"`
		ExecuteCommandProvider struct {
			Commands []string `json:"commands"`
		} `json:"executeCommandProvider"`
		CodeLensProvider *struct{} `json:"codeLensProvider"`
		Workspace        struct {
			WorkspaceFolders struct {
				Supported           bool `json:"supported"`
				ChangeNotifications any  `json:"changeNotifications"`
			} `json:"workspaceFolders"`
		} `json:"workspace"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	if c.TextDocumentSync.Change != 2 || !c.TextDocumentSync.OpenClose || c.TextDocumentSync.Save.IncludeText {
		t.Errorf("textDocumentSync = %+v", c.TextDocumentSync)
	}
	kinds := strings.Join(c.CodeActionProvider.CodeActionKinds, ",")
	if !strings.Contains(kinds, "quickfix") || !strings.Contains(kinds, "source") {
		t.Errorf("codeActionKinds = %s", kinds)
	}
	if len(c.ExecuteCommandProvider.Commands) == 0 || c.CodeLensProvider == nil {
		t.Errorf("commands = %v, codeLens = %v", c.ExecuteCommandProvider.Commands, c.CodeLensProvider)
	}
	if !c.Workspace.WorkspaceFolders.Supported || c.Workspace.WorkspaceFolders.ChangeNotifications != true {
		t.Errorf("workspaceFolders = %+v", c.Workspace.WorkspaceFolders)
	}
	if c.PositionEncoding != "utf-16" {
		t.Errorf("positionEncoding = %q", c.PositionEncoding)
	}
}

func TestLifecycleGate(t *testing.T) {
	h := newHarness(t, nil)
	err := h.c.Call(h.ctx, "textDocument/codeLens", map[string]any{"textDocument": map[string]string{"uri": "file:///x"}}, nil)
	if rpcCode(err) != -32002 {
		t.Fatalf("request before initialize: %v, want -32002", err)
	}
	h.init(t)
	if err := h.c.Call(h.ctx, "initialize", map[string]any{}, nil); rpcCode(err) != -32600 {
		t.Fatalf("second initialize: %v, want -32600", err)
	}
	if err := h.c.Call(h.ctx, "shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.c.Call(h.ctx, "textDocument/codeLens", map[string]any{}, nil); rpcCode(err) != -32600 {
		t.Fatalf("request after shutdown: %v, want -32600", err)
	}
	h.c.Notify("exit", nil)
	if code := <-h.exit; code != 0 {
		t.Fatalf("exit code after shutdown = %d, want 0", code)
	}
}

func TestExitWithoutShutdownIsOne(t *testing.T) {
	h := newHarness(t, nil)
	h.init(t)
	h.c.Notify("exit", nil)
	if code := <-h.exit; code != 1 {
		t.Fatalf("exit code = %d, want 1", code)
	}
}

func TestUnknownMethods(t *testing.T) {
	h := newHarness(t, nil)
	h.init(t)
	if err := h.c.Call(h.ctx, "aisbx/nope", nil, nil); rpcCode(err) != -32601 {
		t.Errorf("unknown aisbx request: %v", err)
	}
	if err := h.c.Call(h.ctx, "custom/without-params", nil, nil); rpcCode(err) != -32601 {
		t.Errorf("unknown request without params: %v", err)
	}
	if err := h.c.Call(h.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]string{"uri": "file:///x"}, "position": map[string]int{"line": 0, "character": 0}}, nil); rpcCode(err) != -32601 {
		t.Errorf("unimplemented request: %v", err)
	}
	h.c.Notify("custom/unknown-notification", map[string]int{"x": 1})
	h.c.Notify("$/setTrace", nil)
	if err := h.c.Call(h.ctx, "workspace/executeCommand", map[string]any{"command": "aisbx.reloadConfig"}, nil); err != nil {
		t.Fatalf("session broken after unknown notifications: %v", err)
	}
}

func TestMalformedInputKeepsSession(t *testing.T) {
	h := newHarness(t, nil)
	h.init(t)
	// Garbage bytes, a frame with a bad header, a frame that is not JSON,
	// and JSON that is not a valid request.
	for _, raw := range []string{
		"\x00\xffgarbage with no header at all\r\n\r\n",
		"Content-Length: nope\r\n\r\n",
	} {
		if err := h.c.WriteRaw([]byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	h.c.WriteFrame([]byte(`{"jsonrpc":"2.0","id":7,"method":`))
	m, err := h.c.WaitUnmatched(h.ctx, func(m lsptest.Message) bool { return string(m.ID) == "null" })
	if err != nil || m.Error == nil || m.Error.Code != -32700 {
		t.Fatalf("invalid JSON: got %+v, %v; want a -32700 error with id null", m, err)
	}
	h.c.WriteFrame([]byte(`{"jsonrpc":"1.0","id":"bad-version","method":"shutdown"}`))
	m, err = h.c.WaitUnmatched(h.ctx, func(m lsptest.Message) bool { return string(m.ID) == `"bad-version"` })
	if err != nil || m.Error == nil || m.Error.Code != -32600 {
		t.Fatalf("invalid request: got %+v, %v; want -32600 with its id", m, err)
	}
	if err := h.c.Call(h.ctx, "workspace/executeCommand", map[string]any{"command": "aisbx.reloadConfig"}, nil); err != nil {
		t.Fatalf("session broken after malformed input: %v", err)
	}
}

func TestPanicInHandlerIsAnsweredAndSurvived(t *testing.T) {
	h := newHarness(t, map[string]lsp.ControlHandler{
		"aisbx/test.panic": func(ctx context.Context, c *lsp.ControlCall) (any, error) { panic("boom") },
	})
	h.init(t)
	err := h.c.Call(h.ctx, "aisbx/test.panic", nil, nil)
	if rpcCode(err) != -32603 || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("panicking handler: %v, want -32603", err)
	}
	if err := h.c.Call(h.ctx, "workspace/executeCommand", map[string]any{"command": "aisbx.reloadConfig"}, nil); err != nil {
		t.Fatalf("session broken after a panic: %v", err)
	}
}

func TestCancelRequestNumericAndStringIDs(t *testing.T) {
	started := make(chan struct{}, 2)
	h := newHarness(t, map[string]lsp.ControlHandler{
		"aisbx/test.block": func(ctx context.Context, c *lsp.ControlCall) (any, error) {
			started <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		},
	})
	h.init(t)
	for _, id := range []string{`41`, `"cancel-me"`} {
		errc := make(chan error, 1)
		go func() { errc <- h.c.CallID(h.ctx, json.RawMessage(id), "aisbx/test.block", nil, nil) }()
		<-started
		h.c.Notify("$/cancelRequest", map[string]json.RawMessage{"id": json.RawMessage(id)})
		if err := <-errc; rpcCode(err) != -32800 {
			t.Errorf("id %s: %v, want -32800 request cancelled", id, err)
		}
	}
}

func TestDiagnosticsPositionsAreUTF16(t *testing.T) {
	root := t.TempDir()
	h := newHarness(t, nil)
	h.init(t, root)
	tests := []struct {
		name      string
		text      string
		line, col int
	}{
		{"emoji counts two units", "x = \"😀\" + \"" + leakToken + "\"", 0, len("x = \"") + 2 + len("\" + \"")},
		{"crlf", "a\r\nb = \"" + leakToken + "\"\r\n", 1, len("b = \"")},
		{"no final newline", "a\nb\n   " + leakToken, 2, 3},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(root, "f"+string(rune('a'+i))+".txt")
			h.c.Open(path, "plaintext", tt.text)
			p, err := h.c.WaitDiagnostics(h.ctx, path, func(p lsptest.PublishDiagnostics) bool { return len(p.Diagnostics) > 0 })
			if err != nil {
				t.Fatal(err)
			}
			d := p.Diagnostics[0]
			want := lsptest.Range{Start: lsptest.Position{Line: tt.line, Character: tt.col}, End: lsptest.Position{Line: tt.line, Character: tt.col + len(leakToken)}}
			if d.Range != want {
				t.Errorf("range = %+v, want %+v", d.Range, want)
			}
			if d.Source != "aisbx" || d.Code != "test-leak" || d.CodeDescription == nil || !strings.HasSuffix(d.CodeDescription.Href, "test-leak.md") || d.Severity != 1 {
				t.Errorf("diagnostic = %+v", d)
			}
		})
	}
}

func TestIncrementalEditsAndCloseClears(t *testing.T) {
	root := t.TempDir()
	h := newHarness(t, nil)
	h.init(t, root)
	path := filepath.Join(root, "a.py")
	h.c.Open(path, "python", "print('hi')\n")
	if p, err := h.c.WaitDiagnostics(h.ctx, path, nil); err != nil || string(p.RawDiagnostics) != "[]" {
		t.Fatalf("clean file: %s, %v; want an empty array, never null", p.RawDiagnostics, err)
	}
	// Insert at 0:0: must not be mistaken for a full-text change.
	h.c.Change(path, 2, lsptest.Range{}, "# "+leakToken+"\n")
	p, err := h.c.WaitDiagnostics(h.ctx, path, func(p lsptest.PublishDiagnostics) bool { return p.Version == 2 })
	if err != nil || len(p.Diagnostics) != 1 || p.Diagnostics[0].Range.Start != (lsptest.Position{Line: 0, Character: 2}) {
		t.Fatalf("after insert: %+v, %v", p, err)
	}
	// An edit outside the document is ignored, not fatal.
	mark := h.c.Mark()
	h.c.Change(path, 3, lsptest.Range{Start: lsptest.Position{Line: 99, Character: 0}, End: lsptest.Position{Line: 99, Character: 1}}, "x")
	h.c.Notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": lsptest.URI(filepath.Join(root, "unknown.py")), "version": 1}, "contentChanges": []map[string]string{{"text": "x"}}})
	// Move the token down a line; the session kept the good text.
	h.c.Change(path, 4, lsptest.Range{}, "\n")
	p, err = h.c.WaitDiagnosticsSince(h.ctx, mark, path, func(p lsptest.PublishDiagnostics) bool { return p.Version == 4 })
	if err != nil || len(p.Diagnostics) != 1 || p.Diagnostics[0].Range.Start.Line != 1 {
		t.Fatalf("after bad edit and a good one: %+v, %v", p, err)
	}
	mark = h.c.Mark()
	h.c.CloseDoc(path)
	p, err = h.c.WaitDiagnosticsSince(h.ctx, mark, path, func(p lsptest.PublishDiagnostics) bool { return p.Version == 0 })
	if err != nil || string(p.RawDiagnostics) != "[]" {
		t.Fatalf("after close: %s, %v", p.RawDiagnostics, err)
	}
}

func TestCodeActionAppliesFix(t *testing.T) {
	root := t.TempDir()
	h := newHarness(t, nil)
	h.init(t, root)
	path := filepath.Join(root, "main.go")
	h.c.Open(path, "go", "package main\n\nconst t = \""+leakToken+"\"\n")
	p, err := h.c.WaitDiagnostics(h.ctx, path, func(p lsptest.PublishDiagnostics) bool { return len(p.Diagnostics) > 0 })
	if err != nil {
		t.Fatal(err)
	}
	var actions []struct {
		Title       string `json:"title"`
		Kind        string `json:"kind"`
		IsPreferred bool   `json:"isPreferred"`
		Edit        struct {
			Changes map[string][]struct {
				Range   lsptest.Range `json:"range"`
				NewText string        `json:"newText"`
			} `json:"changes"`
		} `json:"edit"`
	}
	err = h.c.Call(h.ctx, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]string{"uri": lsptest.URI(path)},
		"range":        p.Diagnostics[0].Range,
		"context":      map[string]any{"diagnostics": p.Diagnostics},
	}, &actions)
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, a := range actions {
		titles = append(titles, a.Title)
	}
	if len(actions) < 2 || actions[0].Title != "Use $TOKEN" || !actions[0].IsPreferred || actions[0].Kind != "quickfix" {
		t.Fatalf("actions = %v", titles)
	}
	edits := actions[0].Edit.Changes[lsptest.URI(path)]
	if len(edits) != 1 || edits[0].NewText != "$TOKEN" || edits[0].Range != p.Diagnostics[0].Range {
		t.Errorf("fix edits = %+v", edits)
	}
	if !strings.Contains(strings.Join(titles, "|"), "Suppress test-leak on this line") {
		t.Errorf("no suppress action in %v", titles)
	}
}

func TestConfigDiagnosticsAndReload(t *testing.T) {
	root := t.TempDir()
	cfgPath := filepath.Join(root, config.FileName)
	broken := "[lsp]\ndebounce = \"200ms\"\n\n[sandbox]\npool_sise = 3\n"
	if err := os.WriteFile(cfgPath, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, nil)
	h.init(t, root)
	// Published for the unopened file on initialized.
	p, err := h.c.WaitDiagnostics(h.ctx, cfgPath, func(p lsptest.PublishDiagnostics) bool { return len(p.Diagnostics) > 0 })
	if err != nil {
		t.Fatal(err)
	}
	d := p.Diagnostics[0]
	if d.Range.Start != (lsptest.Position{Line: 4, Character: 0}) || d.Range.End.Character != len("pool_sise") ||
		d.Code != "config-unknown-key" || !strings.Contains(d.Message, `did you mean "sandbox.pool_size"`) {
		t.Fatalf("config diagnostic = %+v", d)
	}
	// Open it and fix it in the buffer: cleared without saving.
	h.c.Open(cfgPath, "toml", broken)
	mark := h.c.Mark()
	fixed := strings.Replace(broken, "pool_sise", "pool_size", 1)
	h.c.ReplaceAll(cfgPath, 2, fixed)
	if _, err := h.c.WaitDiagnosticsSince(h.ctx, mark, cfgPath, func(p lsptest.PublishDiagnostics) bool {
		return p.Version == 2 && len(p.Diagnostics) == 0
	}); err != nil {
		t.Fatalf("fix in buffer not reflected: %v", err)
	}
	// A save with a type error keeps the last good config and reports the error.
	bad := "[sandbox]\npool_size = \"four\"\n"
	os.WriteFile(cfgPath, []byte(bad), 0o644)
	h.c.ReplaceAll(cfgPath, 3, bad)
	mark = h.c.Mark()
	h.c.Save(cfgPath, bad)
	p, err = h.c.WaitDiagnosticsSince(h.ctx, mark, cfgPath, func(p lsptest.PublishDiagnostics) bool { return len(p.Diagnostics) > 0 })
	if err != nil || p.Diagnostics[0].Range.Start.Line != 1 || p.Diagnostics[0].Severity != 1 {
		t.Fatalf("type error: %+v, %v", p, err)
	}
}

func TestTwoConnectionsShareAWorkspace(t *testing.T) {
	t.Setenv("AISBX_CONFIG", filepath.Join(t.TempDir(), "none.toml"))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	log := testlog.New(t)
	reg := workspace.NewRegistry(ctx, workspace.Options{Logger: log})
	defer reg.Close()
	root := t.TempDir()
	var clients []*lsptest.Client
	for i := 0; i < 2; i++ {
		server, client := net.Pipe()
		go lsp.Serve(ctx, server, lsp.Options{Registry: reg, Logger: log})
		c := lsptest.New(client)
		defer c.Close()
		if _, err := c.Initialize(ctx, root); err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
	}
	ws := reg.Workspaces()
	if len(ws) != 1 || ws[0].Users() != 2 || len(reg.Clients()) != 2 {
		t.Fatalf("workspaces = %d (users %d), clients = %d", len(ws), ws[0].Users(), len(reg.Clients()))
	}
	clients[0].Shutdown(ctx)
	<-clients[0].Done()
	deadline := time.Now().Add(5 * time.Second)
	for len(reg.Clients()) != 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if len(reg.Clients()) != 1 || reg.Workspaces()[0].Users() != 1 {
		t.Fatalf("after one client left: clients = %d", len(reg.Clients()))
	}
}
