package provenance

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// wantEdit is the comparable part of an Edit in golden files.
type wantEdit struct {
	Tool       Tool      `json:"tool"`
	Model      string    `json:"model"`
	Session    string    `json:"session"`
	Transcript string    `json:"transcript"`
	File       string    `json:"file"`
	Ranges     []Range   `json:"ranges"`
	Commit     string    `json:"commit"`
	Time       time.Time `json:"time"`
}

func readWant(t *testing.T, path string) []wantEdit {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []wantEdit
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	return want
}

func compareEdits(t *testing.T, root string, got []Edit, want []wantEdit, source Source, fill func(*wantEdit)) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d edits, want %d: %+v", len(got), len(want), got)
	}
	for i, e := range got {
		w := want[i]
		w.File = filepath.Join(root, filepath.FromSlash(w.File))
		if fill != nil {
			fill(&w)
		}
		g := wantEdit{e.Tool, e.Model, e.Session, e.TranscriptPath, e.File, e.Ranges, e.Commit, e.Time.UTC()}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("edit %d:\n got %+v\nwant %+v", i, g, w)
		}
		if e.Source != source || e.Confidence != ConfidenceCommitted {
			t.Errorf("edit %d: source %q confidence %v", i, e.Source, e.Confidence)
		}
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.test", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func needGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed")
		}
		t.Skip("git is not installed")
	}
}

// TestGitAINotes attaches a git-ai note to a real commit with git notes and
// reads it back, alone and through the log.
func TestGitAINotes(t *testing.T) {
	needGit(t)
	root := t.TempDir()
	git(t, root, "init", "-q")
	for _, f := range []string{"src/main.rs", "src/my file.rs", "src/lib.rs"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat("line\n", 60)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, root, "add", ".")
	git(t, root, "commit", "-q", "-m", "ai work")
	noted := git(t, root, "rev-parse", "HEAD")
	note, _ := filepath.Abs("testdata/gitai/note-sessions.txt")
	git(t, root, "notes", "--ref=ai", "add", "-F", note, noted)
	if err := os.WriteFile(filepath.Join(root, "README"), []byte("human\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, root, "add", ".")
	git(t, root, "commit", "-q", "-m", "human work")
	when := time.Unix(mustInt(t, git(t, root, "show", "-s", "--format=%ct", noted)), 0).UTC()
	want := readWant(t, "testdata/gitai/want-sessions.json")
	fill := func(w *wantEdit) { w.Commit, w.Time = noted, when }

	ctx := context.Background()
	edits, err := ReadGitAINote(ctx, root, noted[:10])
	if err != nil {
		t.Fatal(err)
	}
	compareEdits(t, root, edits, want, SourceGitAI, fill)

	if edits, err := ReadGitAINote(ctx, root, "HEAD"); err != nil || edits != nil {
		t.Errorf("commit without a note: %v, %v", edits, err)
	}
	if _, err := ReadGitAINote(ctx, root, "no-such-rev"); err == nil {
		t.Error("unknown revision: no error")
	}
	recent, err := RecentGitAINotes(ctx, root, 5)
	if err != nil {
		t.Fatal(err)
	}
	compareEdits(t, root, recent, want, SourceGitAI, fill)
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

func TestParseGitAINoteRejects(t *testing.T) {
	data, err := os.ReadFile("testdata/gitai/bad-notes.txt")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	text = text[strings.Index(text, "\n")+1:] // the comment line
	blocks := strings.Split(text, "====\n")
	for i, b := range blocks {
		if _, err := ParseGitAINote([]byte(b)); err == nil {
			t.Errorf("bad note %d parsed:\n%s", i+1, b)
		}
	}
}

func TestReadAgentTraces(t *testing.T) {
	root := t.TempDir()
	if edits, err := ReadAgentTraces(root); edits != nil || err != nil {
		t.Fatalf("no traces file: %v, %v", edits, err)
	}
	data, err := os.ReadFile("testdata/agent-trace/traces.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, filepath.FromSlash(AgentTracePath))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	edits, err := ReadAgentTraces(root)
	if err == nil || !strings.Contains(err.Error(), "1 malformed") {
		t.Errorf("error %v, want one malformed record reported", err)
	}
	compareEdits(t, root, edits, readWant(t, "testdata/agent-trace/want.json"), SourceAgentTrace, nil)
}
