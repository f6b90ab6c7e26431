package provenance

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fixtureCase is one directory of testdata/claude: a hook payload with $DIR
// standing for the workspace, the file before (on disk when the hook runs
// for PreToolUse) and after (on disk for PostToolUse), and want.json.
type fixtureWant struct {
	File    string  `json:"file"`
	Pre     bool    `json:"pre"`
	Ranges  []Range `json:"ranges"`
	Model   string  `json:"model"`
	Session string  `json:"session"`
	Prompt  string  `json:"prompt"`
	Content string  `json:"content"` // name of the fixture file holding the expected content
}

func loadFixture(t *testing.T, dir string) (*ClaudeHook, string, fixtureWant) {
	t.Helper()
	var want fixtureWant
	data, err := os.ReadFile(filepath.Join(dir, "want.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	transcript, err := os.ReadFile("testdata/claude/transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "transcript.jsonl"), transcript, 0o644); err != nil {
		t.Fatal(err)
	}
	onDisk := "after"
	if want.Pre {
		onDisk = "before"
	}
	if content, err := os.ReadFile(filepath.Join(dir, onDisk)); err == nil {
		p := filepath.Join(ws, filepath.FromSlash(want.File))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	payload, err := os.ReadFile(filepath.Join(dir, "payload.json"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := ParseClaudeHook(bytes.NewReader(bytes.ReplaceAll(payload, []byte("$DIR"), []byte(ws))))
	if err != nil {
		t.Fatal(err)
	}
	return h, ws, want
}

func TestClaudeHookFixtures(t *testing.T) {
	var dirs []string
	entries, _ := os.ReadDir("testdata/claude")
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join("testdata/claude", e.Name()))
		}
	}
	if len(dirs) == 0 {
		t.Fatal("no fixtures")
	}
	now := time.Date(2026, 6, 1, 10, 0, 8, 0, time.UTC)
	redact := func(b []byte) []byte { return b } // the fixtures' prompts hold no secret
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			h, ws, want := loadFixture(t, dir)
			if !h.EditsFile() || h.Pre() != want.Pre {
				t.Fatalf("EditsFile=%v Pre=%v, want true, %v", h.EditsFile(), h.Pre(), want.Pre)
			}
			e, content, err := h.Edit(HookOptions{Redactor: redact, Now: func() time.Time { return now }})
			if err != nil {
				t.Fatal(err)
			}
			wantFile := filepath.Join(ws, filepath.FromSlash(want.File))
			if e.File != wantFile || e.Tool != ToolClaudeCode || e.Source != SourceHook || e.Confidence != 1 || !e.Time.Equal(now) {
				t.Errorf("edit %+v", e)
			}
			if !reflect.DeepEqual(e.Ranges, want.Ranges) {
				t.Errorf("ranges %v, want %v", e.Ranges, want.Ranges)
			}
			if e.Model != want.Model || e.Session != want.Session || e.Prompt != want.Prompt {
				t.Errorf("model %q session %q prompt %q; want %q %q %q", e.Model, e.Session, e.Prompt, want.Model, want.Session, want.Prompt)
			}
			wantContent, err := os.ReadFile(filepath.Join(dir, want.Content))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(content, wantContent) {
				t.Errorf("content:\n%s\nwant:\n%s", content, wantContent)
			}
		})
	}
}

// Without a redactor no prompt is kept, whatever the transcript holds.
func TestClaudeHookDropsPromptsWithoutRedactor(t *testing.T) {
	h, _, _ := loadFixture(t, "testdata/claude/post-edit-patch")
	e, _, err := h.Edit(HookOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Prompt != "" || e.Model == "" {
		t.Errorf("prompt %q model %q", e.Prompt, e.Model)
	}
	long := HookOptions{Redactor: func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("greet"), []byte("[REDACTED]")) }, MaxPromptBytes: 20}
	if e, _, _ = h.Edit(long); e.Prompt != "add a docstring and …" {
		t.Errorf("redacted, truncated prompt %q", e.Prompt)
	}
}

func TestClaudeHookErrors(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "f.txt"), []byte("one\none\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, input, err string }{
		{"not json", "hello", "not Claude Code hook JSON"},
		{"no event", `{"tool_name":"Edit"}`, "no hook_event_name"},
		{"not an edit", `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "edits no file"},
		{"ambiguous", `{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"$DIR/f.txt","old_string":"one","new_string":"two"}}`, "occurs 2 times"},
		{"not found", `{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"$DIR/f.txt","old_string":"three","new_string":"two"}}`, "not found"},
		{"gone", `{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"$DIR/nope.txt","old_string":"a","new_string":"b"}}`, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := ParseClaudeHook(strings.NewReader(strings.ReplaceAll(tt.input, "$DIR", ws)))
			if err == nil {
				_, _, err = h.Edit(HookOptions{})
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}

func TestReadTranscriptTailIsBounded(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.jsonl")
	var b bytes.Buffer
	b.WriteString(`{"type":"assistant","message":{"role":"assistant","model":"claude-opus-4-1"}}` + "\n")
	for i := 0; i < 5000; i++ { // 5,000 lines of tool traffic after it
		b.WriteString(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"ok"}]}}` + "\n")
	}
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if model, _, err := ReadTranscriptTail(p, 4096); err != nil || model != "" {
		t.Errorf("a 4 KiB tail found model %q (%v): it read past its bound", model, err)
	}
	if model, _, err := ReadTranscriptTail(p, int64(b.Len())); err != nil || model != "claude-opus-4-1" {
		t.Errorf("whole transcript: model %q, %v", model, err)
	}
}
