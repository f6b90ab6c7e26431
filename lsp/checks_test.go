package lsp_test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/checks/builtin"
	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/internal/lsptest"
	"github.com/aisbx/aisbx/internal/testlog"
	"github.com/aisbx/aisbx/internal/workspace"
	"github.com/aisbx/aisbx/lsp"
)

// fakeAWSKey is a well-formed but invented AWS access key id.
const fakeAWSKey = "AKIAQ3EGUQ7Z4WJ5XK2M" // aisbx:ignore[aws-access-key-id]: invented for the test

// realServer serves with the real checks engine, as the daemon does.
func realServer(t *testing.T) (*lsptest.Client, context.Context) {
	t.Helper()
	t.Setenv("AISBX_CONFIG", filepath.Join(t.TempDir(), "none.toml"))
	return newRealServer(t)
}

// realServerTB is realServer, initialized on root, for benchmarks.
func realServerTB(tb testing.TB, root string) (*lsptest.Client, context.Context) {
	tb.Helper()
	c, ctx := newRealServer(tb)
	if _, err := c.Initialize(ctx, root); err != nil {
		tb.Fatal(err)
	}
	return c, ctx
}

func newRealServer(t testing.TB) (*lsptest.Client, context.Context) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	log := testlog.New(t)
	reg := workspace.NewRegistry(ctx, workspace.Options{Logger: log, NewEngine: builtin.NewEngine})
	t.Cleanup(reg.Close)
	server, client := net.Pipe()
	go lsp.Serve(ctx, server, lsp.Options{Registry: reg, Logger: log})
	c := lsptest.New(client)
	t.Cleanup(func() { c.Close() })
	return c, ctx
}

func TestSecretDiagnosticAtUTF16Column(t *testing.T) {
	root := t.TempDir()
	c, ctx := realServer(t)
	if _, err := c.Initialize(ctx, root); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "main.go")
	// The emoji is two UTF-16 units, four bytes: a byte-based server would
	// put the diagnostic two columns too far right.
	line := "var key = \"😀\" + \"" + fakeAWSKey + "\""
	c.Open(path, "go", "package main\n\n"+line+"\n")
	p, err := c.WaitDiagnostics(ctx, path, func(p lsptest.PublishDiagnostics) bool { return len(p.Diagnostics) > 0 })
	if err != nil {
		t.Fatal(err)
	}
	var d *lsptest.Diagnostic
	for i := range p.Diagnostics {
		if p.Diagnostics[i].Code == "aws-access-key-id" {
			d = &p.Diagnostics[i]
		}
	}
	if d == nil {
		t.Fatalf("no aws-access-key-id diagnostic in %+v", p.Diagnostics)
	}
	col := len("var key = \"") + 2 + len("\" + \"")
	want := lsptest.Range{Start: lsptest.Position{Line: 2, Character: col}, End: lsptest.Position{Line: 2, Character: col + len(fakeAWSKey)}}
	if d.Range != want || d.Source != "aisbx" || d.Severity != 1 || d.CodeDescription == nil {
		t.Fatalf("diagnostic = %+v, want range %+v", d, want)
	}
	if strings.Contains(d.Message, fakeAWSKey) {
		t.Fatalf("the message echoes the secret: %q", d.Message)
	}
}

func TestSecretAllowlistQuickFix(t *testing.T) {
	root := t.TempDir()
	c, ctx := realServer(t)
	applied := make(chan json.RawMessage, 1)
	c.Handle("workspace/applyEdit", func(p json.RawMessage) (any, error) {
		applied <- p
		return map[string]bool{"applied": true}, nil
	})
	os.WriteFile(filepath.Join(root, config.FileName), []byte("[lsp]\ndebounce = \"50ms\"\n"), 0o644)
	if _, err := c.Initialize(ctx, root); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "deploy.sh")
	text := "#!/bin/sh\nexport AWS_ACCESS_KEY_ID=" + fakeAWSKey + "\n"
	c.Open(path, "shellscript", text)
	p, err := c.WaitDiagnostics(ctx, path, func(p lsptest.PublishDiagnostics) bool { return len(p.Diagnostics) > 0 })
	if err != nil {
		t.Fatal(err)
	}
	var actions []struct {
		Title   string `json:"title"`
		Command *struct {
			Command   string            `json:"command"`
			Arguments []json.RawMessage `json:"arguments"`
		} `json:"command"`
		Edit *struct {
			Changes map[string][]struct {
				NewText string `json:"newText"`
			} `json:"changes"`
		} `json:"edit"`
	}
	if err := c.Call(ctx, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]string{"uri": lsptest.URI(path)},
		"range":        p.Diagnostics[0].Range,
		"context":      map[string]any{"diagnostics": p.Diagnostics},
	}, &actions); err != nil {
		t.Fatal(err)
	}
	var titles []string
	var allow *json.RawMessage
	envFix := false
	for _, a := range actions {
		titles = append(titles, a.Title)
		if a.Command != nil && a.Command.Command == "aisbx.allowlistSecret" {
			allow = &a.Command.Arguments[0]
		}
		if a.Edit != nil {
			for _, edits := range a.Edit.Changes {
				for _, e := range edits {
					envFix = envFix || strings.Contains(e.NewText, "${AWS_ACCESS_KEY_ID")
				}
			}
		}
	}
	if allow == nil || !envFix {
		t.Fatalf("want an env-lookup fix and an allowlist action, got %q", titles)
	}
	if strings.Contains(string(*allow), fakeAWSKey) {
		t.Fatalf("the allowlist command carries the secret: %s", *allow)
	}
	if err := c.Call(ctx, "workspace/executeCommand", map[string]any{"command": "aisbx.allowlistSecret", "arguments": []json.RawMessage{*allow}}, nil); err != nil {
		t.Fatal(err)
	}
	var edit struct {
		Edit struct {
			Changes map[string][]struct {
				Range   lsptest.Range `json:"range"`
				NewText string        `json:"newText"`
			} `json:"changes"`
		} `json:"edit"`
	}
	select {
	case raw := <-applied:
		json.Unmarshal(raw, &edit)
	case <-ctx.Done():
		t.Fatal("no workspace/applyEdit")
	}
	cfg := filepath.Join(root, config.FileName)
	edits := edit.Edit.Changes[lsptest.URI(cfg)]
	if len(edits) != 1 || !strings.Contains(edits[0].NewText, "sha256:") || strings.Contains(edits[0].NewText, fakeAWSKey) {
		t.Fatalf("edit = %+v", edit)
	}
	// The user saves the edited config: the finding goes away.
	data, _ := os.ReadFile(cfg)
	newCfg := string(data) + edits[0].NewText
	if edits[0].Range.Start.Line != 2 {
		t.Fatalf("edit lands on line %d, want 2 (end of file)", edits[0].Range.Start.Line)
	}
	os.WriteFile(cfg, []byte(newCfg), 0o644)
	mark := c.Mark()
	c.Open(cfg, "toml", newCfg)
	c.Save(cfg, newCfg)
	if _, err := c.WaitDiagnosticsSince(ctx, mark, path, func(p lsptest.PublishDiagnostics) bool {
		for _, d := range p.Diagnostics {
			if d.Code == "aws-access-key-id" {
				return false
			}
		}
		return true
	}); err != nil {
		t.Fatalf("allowlisted secret still reported: %v", err)
	}
}
