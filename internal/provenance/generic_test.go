package provenance

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestGenericEdit(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "app.py"), []byte("a\nb\nnew\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "prompt.txt"), []byte("use key sk-12345 to call the API"), 0o644); err != nil {
		t.Fatal(err)
	}
	redact := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("sk-12345"), []byte("[REDACTED]")) }
	e, content, err := GenericEdit(GenericInput{Tool: "Aider", File: "app.py", Session: "s1", Model: "gpt-5", PromptFile: "prompt.txt", Cwd: ws}, HookOptions{Redactor: redact})
	if err != nil {
		t.Fatal(err)
	}
	if e.Tool != ToolAider || e.File != filepath.Join(ws, "app.py") || e.Session != "s1" || e.Model != "gpt-5" || e.Source != SourceHook {
		t.Errorf("edit %+v", e)
	}
	if e.Prompt != "use key [REDACTED] to call the API" || string(content) != "a\nb\nnew\nc\n" {
		t.Errorf("prompt %q content %q", e.Prompt, content)
	}
	if !reflect.DeepEqual(e.Ranges, []Range{{0, 4}}) {
		t.Errorf("without the earlier content the whole file counts: %v", e.Ranges)
	}
	e, _, err = GenericEdit(GenericInput{Tool: "codex", File: filepath.Join(ws, "app.py"), Before: []byte("a\nb\nc\n"), HaveBefore: true}, HookOptions{})
	if err != nil || !reflect.DeepEqual(e.Ranges, []Range{{2, 3}}) || e.Prompt != "" {
		t.Errorf("with the earlier content: %+v, %v", e, err)
	}
	for _, in := range []GenericInput{
		{Tool: "", File: "app.py", Cwd: ws},
		{Tool: "my agent!", File: "app.py", Cwd: ws},
		{Tool: "codex", Cwd: ws},
		{Tool: "codex", File: "missing.py", Cwd: ws},
		{Tool: "codex", File: "app.py", PromptFile: "missing.txt", Cwd: ws},
	} {
		if _, _, err := GenericEdit(in, HookOptions{}); err == nil {
			t.Errorf("GenericEdit(%+v) succeeded", in)
		}
	}
}

func TestParseTool(t *testing.T) {
	for in, want := range map[string]Tool{"claude": ToolClaudeCode, "Claude Code": ToolClaudeCode, "CODEX": ToolCodex, "aider": ToolAider, "GitHub-Copilot": ToolCopilot, "cursor": "cursor", "gemini-cli": "gemini-cli"} {
		if got, err := ParseTool(in); err != nil || got != want {
			t.Errorf("ParseTool(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "  ", "a/b", "rm -rf;"} {
		if _, err := ParseTool(bad); err == nil {
			t.Errorf("ParseTool(%q) succeeded", bad)
		}
	}
}

func TestGitBusy(t *testing.T) {
	needGit(t)
	root := t.TempDir()
	git(t, root, "init", "-q")
	if GitBusy(root) {
		t.Fatal("a fresh repository is busy")
	}
	lock := filepath.Join(root, ".git", "index.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if !GitBusy(root) {
		t.Error("index.lock present but not busy")
	}
}
