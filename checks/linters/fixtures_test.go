package linters

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/textpos"
)

var update = flag.Bool("update", false, "rewrite testdata/want from what the parsers return")

// captureDir is where testdata/capture.sh ran the tools; outputs name files
// under it.
const captureDir = "/tmp/aisbx-linters-capture"

// fixture is one real tool run captured in testdata/out, over sources in
// testdata/src.
type fixture struct {
	name  string // testdata/out/<name>.{stdout,stderr,exit}, testdata/want/<name>.txt
	tool  *tool
	dir   string   // the source directory under src/
	files []string // the files whose findings are listed
	parse func(o outcome, dir string) ([]diag, error)
}

func stdoutOnly(p func([]byte) ([]diag, error)) func(outcome, string) ([]diag, error) {
	return func(o outcome, _ string) ([]diag, error) { return p(o.Stdout) }
}

// plantedPasswords are in testdata/src/py/a.py; bandit quotes them.
var plantedPasswords = []string{"Sup3rSecretValue", "InlineSecretPw"}

var fixtures = []fixture{
	{"govet-gopkg", goVet, "gopkg", []string{"main.go", "other.go"}, parseGoVet},
	{"govet-gobroken", goVet, "gobroken", []string{"b.go"}, parseGoVet},
	{"staticcheck-gopkg", staticcheckTool, "gopkg", []string{"main.go", "other.go"}, parseStaticcheck},
	{"staticcheck-gobroken", staticcheckTool, "gobroken", []string{"b.go"}, parseStaticcheck},
	{"staticcheck-badconfig", staticcheckTool, "scconfig", []string{"f.go"}, parseStaticcheck},
	{"golangci-lint-gopkg", golangciLint, "gopkg", []string{"main.go", "other.go"}, func(o outcome, dir string) ([]diag, error) { return parseGolangci(o.Stdout, dir) }},
	{"golangci-lint-gobroken", golangciLint, "gobroken", []string{"b.go"}, func(o outcome, dir string) ([]diag, error) { return parseGolangci(o.Stdout, dir) }},
	{"eslint-a", eslintTool, "js", []string{"a.js"}, stdoutOnly(parseESLint)},
	{"eslint-broken", eslintTool, "js", []string{"broken.js"}, stdoutOnly(parseESLint)},
	{"shellcheck-a", shellcheckTool, "sh", []string{"a.sh"}, stdoutOnly(parseShellcheck)},
	{"shellcheck-noshebang", shellcheckTool, "sh", []string{"noshebang.bash"}, stdoutOnly(parseShellcheck)},
	{"bandit-a", banditTool, "py", []string{"a.py"}, stdoutOnly(parseBandit)},
	{"bandit-broken", banditTool, "py", []string{"broken.py"}, stdoutOnly(parseBandit)},
}

// copySources copies testdata/src to a temporary directory (Go's tools skip
// testdata) and returns it.
func copySources(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if out, err := exec.Command("cp", "-r", "testdata/src/.", dst).CombinedOutput(); err != nil {
		t.Fatalf("copying sources: %v\n%s", err, out)
	}
	return dst
}

func readOutcome(t *testing.T, name, root string) outcome {
	t.Helper()
	read := func(ext string) []byte {
		data, err := os.ReadFile(filepath.Join("testdata", "out", name+ext))
		if err != nil {
			t.Fatal(err)
		}
		return []byte(strings.ReplaceAll(string(data), captureDir, root))
	}
	code, err := strconv.Atoi(strings.TrimSpace(string(read(".exit"))))
	if err != nil {
		t.Fatal(err)
	}
	return outcome{Stdout: read(".stdout"), Stderr: read(".stderr"), ExitCode: code}
}

// describe renders findings the way want files list them: position (1-based
// line, UTF-16 column), rule, severity, the text the range covers, and each
// fix edit as «old»→«new».
func describe(rel string, f *checks.File, fs []checks.Finding) []string {
	idx := textpos.NewIndex(f.Content)
	var lines []string
	for _, fd := range fs {
		p := idx.UTF16(fd.Start)
		lines = append(lines, fmt.Sprintf("%s:%d:%d %s %s «%s» %s", rel, p.Line+1, p.Col+1, fd.Rule, fd.Severity, f.Content[fd.Start:fd.End], fd.Message))
		for _, fix := range fd.Fixes {
			var edits []string
			for _, e := range fix.Edits {
				edits = append(edits, fmt.Sprintf("«%s»→«%s»", f.Content[e.Start:e.End], e.NewText))
			}
			lines = append(lines, fmt.Sprintf("  fix %q: %s", fix.Title, strings.Join(edits, " ")))
		}
	}
	return lines
}

func wantLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "want", name+".txt"))
	if err != nil {
		t.Fatalf("%v (run with -update to create it, then review it)", err)
	}
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n")
}

func compareLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") == strings.Join(want, "\n") {
		return
	}
	t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
}

func fileIn(t *testing.T, root, dir, rel string) *checks.File {
	t.Helper()
	path := filepath.Join(root, dir, rel)
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := checks.NewFile(filepath.Join(root, dir), path, content)
	f.OnDisk = true
	return f
}

// TestParsers feeds each parser the output its tool really printed and
// checks that every finding lands on the text the tool meant, with each
// tool's column unit: the sources put emoji and tabs before findings.
func TestParsers(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			root := copySources(t)
			ds, err := fx.parse(readOutcome(t, fx.name, root), filepath.Join(root, fx.dir))
			var got []string
			if err != nil {
				got = []string{"error: " + strings.ReplaceAll(err.Error(), root, "$ROOT")}
			}
			for _, rel := range fx.files {
				f := fileIn(t, root, fx.dir, rel)
				fs := toFindings(fx.tool, f, ds)
				for _, fd := range fs {
					for _, secret := range plantedPasswords {
						if strings.Contains(fd.Message, secret) {
							t.Errorf("%s echoes the planted password %q: %s", fd.Rule, secret, fd.Message)
						}
					}
				}
				got = append(got, describe(rel, f, fs)...)
			}
			if *update {
				if err := os.MkdirAll(filepath.Join("testdata", "want"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join("testdata", "want", fx.name+".txt"), []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			compareLines(t, got, wantLines(t, fx.name))
		})
	}
}

// requireTool returns where a linter is installed; a missing one skips the
// test, or fails it under CI.
func requireTool(t *testing.T, tl *tool, f *checks.File) string {
	t.Helper()
	if bin := newPathCache().find(tl, f); bin != "" {
		return bin
	}
	msg := fmt.Sprintf("%s is not installed (checks/linters/testdata/install-tools.sh installs it)", tl.name)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// eslintDir is where install-tools.sh puts ESLint and its base config.
func eslintDir() string {
	if d := os.Getenv("ESLINT_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "aisbx-lint-tools", "eslint")
}

// linkESLint makes the JS sources a project with ESLint installed locally,
// the way users have it.
func linkESLint(t *testing.T, root string) {
	t.Helper()
	nm := filepath.Join(eslintDir(), "node_modules")
	if _, err := os.Stat(nm); err != nil {
		return // requireTool reports it
	}
	if err := os.Symlink(nm, filepath.Join(root, "js", "node_modules")); err != nil {
		t.Fatal(err)
	}
}

// TestRealTools runs each installed tool through Check.Run on the same
// sources and expects exactly the findings the captured output gives:
// the argv, working directory and stdin handling are those of the capture.
func TestRealTools(t *testing.T) {
	root := copySources(t)
	linkESLint(t, root)
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			c, err := New(Options{Enabled: []string{fx.tool.name}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, rel := range fx.files {
				f := fileIn(t, root, fx.dir, rel)
				requireTool(t, fx.tool, f)
				if !c.Applies(f) {
					t.Fatalf("%s does not apply to %s", fx.tool.name, rel)
				}
				fs, err := c.Run(t.Context(), f)
				if err != nil {
					got = append(got, "error: "+strings.TrimPrefix(strings.ReplaceAll(err.Error(), root, "$ROOT"), fx.tool.name+": "))
				}
				got = append(got, describe(rel, f, fs)...)
			}
			compareLines(t, got, wantLines(t, fx.name))
		})
	}
}

func TestPackageToolsRunOncePerPackage(t *testing.T) {
	root := copySources(t)
	c, err := New(Options{Enabled: []string{"go vet"}})
	if err != nil {
		t.Fatal(err)
	}
	main, other := fileIn(t, root, "gopkg", "main.go"), fileIn(t, root, "gopkg", "other.go")
	requireTool(t, goVet, main)
	ctx := context.Background()
	done := make(chan []checks.Finding, 2)
	for _, f := range []*checks.File{main, other} {
		go func() {
			fs, err := c.Run(ctx, f)
			if err != nil {
				t.Error(err)
			}
			done <- fs
		}()
	}
	n := len(<-done) + len(<-done)
	if n == 0 {
		t.Fatal("go vet found nothing in either file")
	}
	if got := len(c.pkgs.entries); got != 1 {
		t.Fatalf("%d package runs cached for one package, want 1", got)
	}
	// An edit to any file of the package is a new run.
	if err := os.WriteFile(other.Path, append(other.Content, "\nfunc more() {}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(ctx, main); err != nil {
		t.Fatal(err)
	}
	if got := len(c.pkgs.entries); got != 2 {
		t.Fatalf("%d cached runs after an edit, want 2", got)
	}
}

// TestUnsavedBuffer lints a buffer that differs from the disk: stdin tools
// see the buffer, disk-reading tools do not apply.
func TestUnsavedBuffer(t *testing.T) {
	root := copySources(t)
	c, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	sh := &checks.File{Path: filepath.Join(root, "sh", "unsaved.sh"), Root: root, Language: checks.LangShell,
		Content: []byte("#!/bin/sh\nrm -rf $TARGET\n")}
	requireTool(t, shellcheckTool, sh)
	fs, err := c.Run(t.Context(), sh)
	if err != nil {
		t.Fatal(err)
	}
	if got := describe("unsaved.sh", sh, fs); len(got) == 0 || !strings.Contains(got[0], "shellcheck/SC2086") || !strings.Contains(got[0], "«$TARGET»") {
		t.Fatalf("findings on the unsaved buffer: %q", got)
	}
	goFile := fileIn(t, root, "gopkg", "main.go")
	goFile.OnDisk = false
	if c.Applies(goFile) {
		t.Fatal("Go's tools read the disk: they must not lint an unsaved buffer")
	}
}

func TestMissingToolsAreSkippedQuietly(t *testing.T) {
	root := copySources(t)
	empty := t.TempDir()
	t.Setenv("PATH", empty)
	t.Setenv("HOME", empty)
	t.Setenv("GOPATH", empty)
	t.Setenv("GOBIN", "")
	c, err := New(Options{Enabled: []string{"shellcheck", "bandit", "ruff"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*checks.File{fileIn(t, root, "sh", "a.sh"), fileIn(t, root, "py", "a.py")} {
		fs, err := c.Run(t.Context(), f)
		if err != nil || len(fs) != 0 {
			t.Errorf("%s: findings %v, error %v; want neither from missing tools", f.Path, fs, err)
		}
	}
	for _, st := range Detect(t.Context()) {
		if st.Name != "go vet" && st.Found {
			t.Errorf("Detect found %s at %s with an empty PATH", st.Name, st.Path)
		}
	}
}

func TestDetectFindsInstalledTools(t *testing.T) {
	root := copySources(t)
	requireTool(t, shellcheckTool, fileIn(t, root, "sh", "a.sh"))
	sts := Detect(t.Context())
	if len(sts) != len(ToolNames()) {
		t.Fatalf("Detect listed %d tools, want %d", len(sts), len(ToolNames()))
	}
	for _, st := range sts {
		if st.Name == "shellcheck" && (!st.Found || st.Version == "" || !strings.Contains(st.Path, "shellcheck")) {
			t.Errorf("shellcheck status = %+v", st)
		}
	}
}

func TestToolTimeoutIsAnError(t *testing.T) {
	root := copySources(t)
	f := fileIn(t, root, "py", "a.py")
	requireTool(t, banditTool, f)
	c, err := New(Options{Enabled: []string{"bandit"}, Timeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Run(t.Context(), f)
	if err == nil || !strings.Contains(err.Error(), "bandit: timed out") {
		t.Fatalf("error = %v, want a bandit timeout", err)
	}
}

func TestUnknownToolName(t *testing.T) {
	if _, err := New(Options{Enabled: []string{"shellcheck", "rufff"}}); err == nil || !strings.Contains(err.Error(), `"rufff"`) {
		t.Fatalf("error = %v", err)
	}
	c, err := New(Options{Enabled: []string{"go-vet", "GO VET", "eslint"}})
	if err != nil || len(c.tools) != 2 {
		t.Fatalf("aliases: %v, %d tools", err, len(c.tools))
	}
}
