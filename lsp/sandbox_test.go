package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/internal/testfs"

	"github.com/aisbx/aisbx/internal/lsptest"
	"github.com/aisbx/aisbx/internal/sbxtest"
)

// sandboxWorkspace is testsel's Go sample as a git repo whose aisbx.toml
// builds sandbox images from the local base image, with the break applied.
func sandboxWorkspace(t *testing.T) string { return sandboxWorkspaceTB(t) }

func sandboxWorkspaceTB(t testing.TB) string {
	t.Helper()
	base := sbxtest.NeedBase(t, "go")
	root := filepath.Join(t.TempDir(), "gows")
	samples := "../internal/testsel/testdata/workspaces"
	testfs.CopyTree(t, filepath.Join(samples, "gows"), root)
	os.WriteFile(filepath.Join(root, "aisbx.toml"), []byte("[sandbox]\npool_size = 1\n\n[sandbox.profiles.go]\nbase = \""+base+"\"\n"), 0o644)
	testfs.GitRepo(t, root)
	testfs.CopyTree(t, filepath.Join(samples, "breaks", "gows"), root)
	return root
}

// TestRunTestCodeActionInSandbox drives the headline action as an editor
// does: the code action at a test, executeCommand, then the streamed
// progress and results, the failing-test diagnostic at the failing line,
// the summary message, the lenses; then a fix and "re-run failed" clears
// the diagnostic.
func TestRunTestCodeActionInSandbox(t *testing.T) {
	root := sandboxWorkspace(t)
	c, ctx := realServer(t)
	if _, err := c.Initialize(ctx, root); err != nil {
		t.Fatal(err)
	}
	testFile := filepath.Join(root, "geom", "geom_test.go")
	content, _ := os.ReadFile(testFile)
	c.Open(testFile, "go", string(content))
	failLine := testfs.MarkedLine(t, testFile, "FAILS-HERE") - 1

	// The cursor inside TestPerimeter.
	var actions []struct {
		Title   string `json:"title"`
		Command struct {
			Command   string            `json:"command"`
			Arguments []json.RawMessage `json:"arguments"`
		} `json:"command"`
	}
	pos := lsptest.Position{Line: failLine, Character: 2}
	if err := c.Call(ctx, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]string{"uri": lsptest.URI(testFile)},
		"range":        lsptest.Range{Start: pos, End: pos},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions); err != nil {
		t.Fatal(err)
	}
	var runThis *json.RawMessage
	var titles []string
	for _, a := range actions {
		titles = append(titles, a.Title)
		if a.Title == "Run this test in sandbox: TestPerimeter" {
			runThis = &a.Command.Arguments[0]
		}
	}
	if runThis == nil || !strings.Contains(strings.Join(titles, "|"), "Run affected tests in sandbox") {
		t.Fatalf("code actions = %q", titles)
	}
	mark := c.Mark()
	var summary struct {
		Status string `json:"status"`
		Failed int    `json:"failed"`
		Passed int    `json:"passed"`
		Record string `json:"record"`
		Image  struct {
			Digest string `json:"digest"`
		} `json:"image"`
		Tests []struct {
			ID       string `json:"id"`
			Status   string `json:"status"`
			Location *struct {
				URI   string        `json:"uri"`
				Range lsptest.Range `json:"range"`
			} `json:"location"`
		} `json:"tests"`
	}
	err := c.Call(ctx, "workspace/executeCommand", map[string]any{
		"command": "aisbx.runTest", "arguments": []json.RawMessage{*runThis}, "workDoneToken": "run-1",
	}, &summary)
	if err != nil {
		t.Fatal(err)
	}
	if summary.Status != "failed" || summary.Failed != 1 || summary.Record == "" || !strings.HasPrefix(summary.Image.Digest, "sha256:") {
		t.Fatalf("summary = %+v", summary)
	}
	if len(summary.Tests) != 1 || summary.Tests[0].Location == nil || summary.Tests[0].Location.Range.Start.Line != failLine {
		t.Fatalf("tests = %+v, want one failure at line %d", summary.Tests, failLine)
	}

	// The failing assertion's line carries the diagnostic.
	p, err := c.WaitDiagnosticsSince(ctx, mark, testFile, func(p lsptest.PublishDiagnostics) bool {
		for _, d := range p.Diagnostics {
			if d.Code == "test-failed" {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range p.Diagnostics {
		if d.Code == "test-failed" && (d.Range.Start.Line != failLine || !strings.Contains(d.Message, "TestPerimeter failed") || !strings.Contains(d.Message, "want 10")) {
			t.Errorf("test diagnostic = %+v, want line %d", d, failLine)
		}
	}

	// Progress streamed with the client's token, and the summary was shown.
	kinds := map[string]bool{}
	for _, raw := range c.Notifications("$/progress") {
		var n struct {
			Token string `json:"token"`
			Value struct {
				Kind string `json:"kind"`
			} `json:"value"`
		}
		json.Unmarshal(raw, &n)
		if n.Token == "run-1" {
			kinds[n.Value.Kind] = true
		}
	}
	if !kinds["begin"] || !kinds["report"] || !kinds["end"] {
		t.Errorf("progress kinds = %v", kinds)
	}
	if msg, err := c.WaitNotificationSince(ctx, mark, "window/showMessage", func(raw json.RawMessage) bool {
		return strings.Contains(string(raw), "1 failed") && strings.Contains(string(raw), "sandbox go@sha256:")
	}); err != nil {
		t.Errorf("no summary message: %v", err)
	} else if !strings.Contains(string(msg), `"type":2`) {
		t.Errorf("summary message type: %s", msg)
	}
	if _, err := c.WaitNotificationSince(ctx, mark, "aisbx/testResult", func(raw json.RawMessage) bool {
		return strings.Contains(string(raw), `"status":"failed"`) && strings.Contains(string(raw), "TestPerimeter")
	}); err != nil {
		t.Errorf("no aisbx/testResult: %v", err)
	}

	// Lenses: a run button per test and the last result.
	var lenses []struct {
		Command struct {
			Title string `json:"title"`
		} `json:"command"`
	}
	if err := c.Call(ctx, "textDocument/codeLens", map[string]any{"textDocument": map[string]string{"uri": lsptest.URI(testFile)}}, &lenses); err != nil {
		t.Fatal(err)
	}
	var lensTitles []string
	for _, l := range lenses {
		lensTitles = append(lensTitles, l.Command.Title)
	}
	joined := strings.Join(lensTitles, "|")
	if !strings.Contains(joined, "▶ Run in sandbox") || !strings.Contains(joined, "✗ failed") {
		t.Errorf("lenses = %q", lensTitles)
	}

	// Fix the code; re-run the failures: green, and the diagnostic goes.
	testfs.Git(t, root, "checkout", "-q", "--", ".")
	mark = c.Mark()
	if err := c.Call(ctx, "workspace/executeCommand", map[string]any{"command": "aisbx.rerunFailed", "arguments": []any{map[string]string{"uri": lsptest.URI(root)}}}, &summary); err != nil {
		t.Fatal(err)
	}
	if summary.Status != "passed" || summary.Failed != 0 || summary.Passed == 0 {
		t.Fatalf("re-run = %+v", summary)
	}
	if _, err := c.WaitDiagnosticsSince(ctx, mark, testFile, func(p lsptest.PublishDiagnostics) bool {
		for _, d := range p.Diagnostics {
			if d.Code == "test-failed" {
				return false
			}
		}
		return true
	}); err != nil {
		t.Fatalf("failing-test diagnostic not cleared: %v", err)
	}
}

// TestDiscoverTests lists a folder's tests with parents, for test explorers.
func TestDiscoverTests(t *testing.T) {
	root := filepath.Join(t.TempDir(), "gows")
	testfs.CopyTree(t, "../internal/testsel/testdata/workspaces/gows", root)
	c, ctx := realServer(t)
	if _, err := c.Initialize(ctx, root); err != nil {
		t.Fatal(err)
	}
	var res struct {
		Tests []struct {
			ID     string `json:"id"`
			Label  string `json:"label"`
			Kind   string `json:"kind"`
			Parent string `json:"parent"`
		} `json:"tests"`
	}
	if err := c.Call(ctx, "aisbx/discoverTests", map[string]string{"uri": lsptest.URI(root)}, &res); err != nil {
		t.Fatal(err)
	}
	byID := map[string]string{}
	for _, tt := range res.Tests {
		byID[tt.ID] = tt.Kind
	}
	if byID["example.com/gows/geom:TestPerimeter"] != "function" || byID["file:geom/geom_test.go"] != "file" {
		t.Fatalf("tests = %+v", res.Tests)
	}
}
