package vulns

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/textpos"
	"github.com/aisbx/aisbx/internal/vulndb"
)

var update = flag.Bool("update", false, "rewrite testdata/want/*.txt from the check's output")

// fixtureDB imports the real advisories kept in internal/vulndb/testdata.
func fixtureDB(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := vulndb.Import(context.Background(), dir, filepath.Join("..", "..", "internal", "vulndb", "testdata", "osv"), vulndb.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// render writes findings one a line: where, which advisory, how severe,
// the fixes, and the message, so that want files can be read by eye.
func render(content []byte, fs []checks.Finding) string {
	idx := textpos.NewIndex(content)
	var b strings.Builder
	for _, f := range fs {
		p := idx.Bytes(f.Start)
		fmt.Fprintf(&b, "%d:%d %s %s %q", p.Line+1, p.Col+1, f.Rule, f.Severity, string(content[f.Start:f.End]))
		for _, fx := range f.Fixes {
			pref := ""
			if fx.Preferred {
				pref = "*"
			}
			for _, e := range fx.Edits {
				fmt.Fprintf(&b, " fix%s[%q->%q]", pref, string(content[e.Start:e.End]), e.NewText)
			}
		}
		fmt.Fprintf(&b, "\n    %s\n", f.Message)
	}
	return b.String()
}

// TestWorkspaces runs the check on every manifest and lockfile of the
// sample workspaces and compares with testdata/want/<dir>.txt.
func TestWorkspaces(t *testing.T) {
	c := New(Options{DBDir: fixtureDB(t)})
	defer c.Close()
	dirs, _ := filepath.Glob("testdata/workspace/*")
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			for _, e := range entries {
				abs, _ := filepath.Abs(filepath.Join(dir, e.Name()))
				content, err := os.ReadFile(abs)
				if err != nil {
					t.Fatal(err)
				}
				f := checks.NewFile(filepath.Dir(abs), abs, content)
				if !c.Applies(f) {
					continue
				}
				fs, err := c.Run(context.Background(), f)
				if err != nil {
					t.Fatalf("%s: %v", e.Name(), err)
				}
				fmt.Fprintf(&got, "== %s\n%s", e.Name(), render(content, fs))
			}
			want := filepath.Join("testdata", "want", filepath.Base(dir)+".txt")
			if *update {
				os.MkdirAll(filepath.Dir(want), 0o755)
				if err := os.WriteFile(want, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			w, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run with -update, then check by eye)", err)
			}
			if got.String() != string(w) {
				t.Errorf("findings differ from %s\n--- got\n%s--- want\n%s", want, got.String(), w)
			}
		})
	}
}

// TestEditedBuffer checks that the check reads the editor's content, not
// the disk: adding a vulnerable version in an unsaved buffer yields a
// finding on that line, through the engine as the LSP face runs it.
func TestEditedBuffer(t *testing.T) {
	eng := checks.NewEngine(checks.Options{}, New(Options{DBDir: fixtureDB(t)}))
	abs, _ := filepath.Abs("testdata/workspace/py/requirements.txt")
	clean := []byte("requests==2.31.0\ncertifi==2023.7.22\n")
	if r := eng.Run(context.Background(), checks.NewFile(filepath.Dir(abs), abs, clean)); len(r.Findings) != 0 || len(r.Errors) != 0 {
		t.Fatalf("clean buffer: %+v", r)
	}
	edited := []byte("requests==2.31.0\ncertifi==2023.7.22\nurllib3==1.26.5\n")
	r := eng.Run(context.Background(), checks.NewFile(filepath.Dir(abs), abs, edited))
	if len(r.Errors) != 0 || len(r.Findings) != 1 {
		t.Fatalf("edited buffer: %+v", r)
	}
	f := r.Findings[0]
	line := textpos.NewIndex(edited).LineOf(f.Start)
	if line != 2 || f.Rule != "GHSA-v845-jxx5-vc9f" || f.Check != "vulns" || f.Category != checks.CategoryDependency {
		t.Errorf("finding %+v on line %d, want GHSA-v845-jxx5-vc9f on line 2", f, line)
	}
	// The engine adds its own "suppress" fix after the check's.
	if len(f.Fixes) == 0 || !f.Fixes[0].Preferred || f.Fixes[0].Edits[0].NewText != "1.26.17" {
		t.Errorf("fixes %+v, want a preferred bump to 1.26.17 first", f.Fixes)
	}
}

// TestNoDatabase: without an imported database the check stays quiet.
func TestNoDatabase(t *testing.T) {
	c := New(Options{DBDir: filepath.Join(t.TempDir(), "none")})
	abs, _ := filepath.Abs("testdata/workspace/py/requirements.txt")
	content, _ := os.ReadFile(abs)
	fs, err := c.Run(context.Background(), checks.NewFile(filepath.Dir(abs), abs, content))
	if err != nil || len(fs) != 0 {
		t.Errorf("no database: %v, %v", fs, err)
	}
}

// TestIntroduced builds a git history: the base commit has one vulnerable
// pin, the working tree adds two more. Only the new ones are reported.
func TestIntroduced(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is not installed")
		}
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(rel, s string) {
		t.Helper()
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q")
	write("svc/requirements.txt", "py==1.11.0\nrequests==2.31.0\n")
	run("add", ".")
	run("commit", "-q", "-m", "base")
	write("svc/requirements.txt", "py==1.11.0\nrequests==2.30.0\nurllib3==2.0.0\n")

	c := New(Options{DBDir: fixtureDB(t)})
	got, err := c.Introduced(context.Background(), root, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, pf := range got {
		ids = append(ids, pf.Path+":"+pf.Finding.Rule)
	}
	want := "svc/requirements.txt:GHSA-j8r2-6x86-q33q svc/requirements.txt:GHSA-v845-jxx5-vc9f"
	if strings.Join(ids, " ") != want {
		t.Errorf("introduced = %v, want %s", ids, want)
	}
	if _, err := c.Introduced(context.Background(), root, "no-such-rev"); err == nil {
		t.Error("an unknown revision gave no error")
	}
}

func TestPackageNameGuesses(t *testing.T) {
	cases := map[string]string{
		"golang.org/x/net/html":         "html",
		"gopkg.in/yaml.v3":              "yaml.v3 yaml",
		"github.com/google/go-cmp/cmp":  "cmp",
		"github.com/jackc/pgx/v5":       "pgx",
		"github.com/mattn/go-sqlite3":   "go-sqlite3 sqlite3",
		"github.com/BurntSushi/toml":    "toml",
		"github.com/segmentio/kafka-go": "kafka-go kafka",
	}
	for in, want := range cases {
		if got := strings.Join(packageNameGuesses(in, ""), " "); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}

// TestConcurrentRuns runs the check on every sample file from several
// goroutines at once, as the engine does; run with -race.
func TestConcurrentRuns(t *testing.T) {
	c := New(Options{DBDir: fixtureDB(t), RefreshEvery: time.Nanosecond})
	defer c.Close()
	paths, _ := filepath.Glob("testdata/workspace/*/*")
	var files []*checks.File
	for _, p := range paths {
		abs, _ := filepath.Abs(p)
		content, err := os.ReadFile(abs)
		if err != nil {
			t.Fatal(err)
		}
		if f := checks.NewFile(filepath.Dir(abs), abs, content); c.Applies(f) {
			files = append(files, f)
		}
	}
	want := map[string]int{}
	for _, f := range files {
		fs, err := c.Run(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		want[f.Path] = len(fs)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8*len(files))
	for i := 0; i < 8; i++ {
		for _, f := range files {
			wg.Add(1)
			go func() {
				defer wg.Done()
				fs, err := c.Run(context.Background(), f)
				if err == nil && len(fs) != want[f.Path] {
					err = fmt.Errorf("%s: %d findings, want %d", f.Path, len(fs), want[f.Path])
				}
				if err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
