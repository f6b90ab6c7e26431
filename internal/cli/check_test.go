package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/aisbx/aisbx/checks/report/sariftest"
)

func TestMain(m *testing.M) {
	// Keep the developer's own config out of the tests.
	os.Setenv("AISBX_CONFIG", filepath.Join(os.TempDir(), "aisbx-check-test-no-user-config.toml"))
	os.Exit(m.Run())
}

// plantedKey is the AWS key id planted in testdata/check/basic, in the
// binary file and in the file over max_file_size.
const plantedKey = "AKIAQ4NSRZ5OXK2JEF7B" // aisbx:ignore[aws-access-key-id]: invented for the test

// checkWorkspace copies testdata/check/basic to a temporary directory,
// renames dot-gitignore, and adds a binary and an oversized file.
func checkWorkspace(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if out, err := exec.Command("cp", "-r", "testdata/check/basic/.", dst).CombinedOutput(); err != nil {
		t.Fatalf("copying the workspace: %v\n%s", err, out)
	}
	if err := os.Rename(filepath.Join(dst, "dot-gitignore"), filepath.Join(dst, ".gitignore")); err != nil {
		t.Fatal(err)
	}
	bin := append([]byte("\x7fELF\x00\x01"), "key="+plantedKey+"\n"...)
	writeFile(t, filepath.Join(dst, "src", "tool.bin"), bin)
	big := bytes.Repeat([]byte("# padding line of a large generated file\n"), 2000) // 80 KB > 64KiB
	writeFile(t, filepath.Join(dst, "src", "generated.py"), append(big, "KEY = \""+plantedKey+"\"\n"...))
	return dst
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

type cliRun struct {
	code           int
	stdout, stderr string
}

// runCheck runs `aisbxd check args...` through Main in dir.
func runCheck(t *testing.T, dir string, args ...string) cliRun {
	t.Helper()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
	code := Main(context.Background(), append([]string{"check"}, args...), env)
	return cliRun{code, stdout.String(), stderr.String()}
}

type jsonOut struct {
	Findings []struct {
		Path      string `json:"path"`
		Line      int    `json:"line"`
		Column    int    `json:"column"`
		EndLine   int    `json:"end_line"`
		EndColumn int    `json:"end_column"`
		Rule      string `json:"rule"`
		Category  string `json:"category"`
		Severity  string `json:"severity"`
		Message   string `json:"message"`
	} `json:"findings"`
	FilesScanned int   `json:"files_scanned"`
	BytesScanned int64 `json:"bytes_scanned"`
	DurationMS   *int  `json:"duration_ms"`
}

func decodeJSON(t *testing.T, r cliRun) jsonOut {
	t.Helper()
	var out jsonOut
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("stdout is not the JSON report: %v\n%s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return out
}

func TestCheckExitCodes(t *testing.T) {
	ws := checkWorkspace(t)
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"an error fails the default gate", []string{"."}, ExitFailure},
		{"never never fails", []string{"--fail-on", "never", "."}, ExitOK},
		{"a warning passes --fail-on error", []string{"--fail-on", "error", "src/app.py"}, ExitOK},
		{"a warning fails --fail-on warning", []string{"--fail-on", "warning", "src/app.py"}, ExitFailure},
		{"an info passes --fail-on warning", []string{"--fail-on", "warning", "src/deploy.sh"}, ExitOK},
		{"an info fails --fail-on info", []string{"src/deploy.sh", "--fail-on", "info"}, ExitFailure},
		{"fail_on comes from the config", []string{"--config", "strict.toml", "src/deploy.sh"}, ExitFailure},
		{"unknown format", []string{"--format", "xml", "."}, ExitUsage},
		{"unknown fail-on", []string{"--fail-on", "fatal", "."}, ExitUsage},
		{"unknown flag", []string{"--bogus", "."}, ExitUsage},
		{"missing path", []string{"no/such/dir"}, ExitUsage},
		{"help", []string{"-h"}, ExitOK},
	}
	writeFile(t, filepath.Join(ws, "strict.toml"), []byte("[checks]\nenabled = [\"dangerous\"]\nfail_on = \"info\"\n[checks.severity]\nsh-curl-pipe-shell = \"info\"\n"))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCheck(t, ws, tt.args...)
			if r.code != tt.want {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tt.want, r.stdout, r.stderr)
			}
		})
	}
}

func TestCheckBrokenConfig(t *testing.T) {
	ws := checkWorkspace(t)
	writeFile(t, filepath.Join(ws, "aisbx.toml"), []byte("[checks]\nfail_on = \"sometimes\"\n"))
	r := runCheck(t, ws, ".")
	if r.code != ExitUsage {
		t.Fatalf("exit %d, want %d; stderr: %s", r.code, ExitUsage, r.stderr)
	}
	if !strings.Contains(r.stderr, filepath.Join(ws, "aisbx.toml")+":2: error") {
		t.Errorf("the problem is not reported at file:line:\n%s", r.stderr)
	}
}

// TestCheckJSONPositions checks the JSON shape and that positions are
// 1-based with UTF-16 columns: src/app.py has an emoji before its finding.
func TestCheckJSONPositions(t *testing.T) {
	ws := checkWorkspace(t)
	r := runCheck(t, ws, "--format", "json", "--fail-on", "never")
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	out := decodeJSON(t, r)
	if out.DurationMS == nil || out.FilesScanned == 0 || out.BytesScanned == 0 {
		t.Errorf("totals missing: %+v", out)
	}
	byPath := map[string][]string{}
	for _, f := range out.Findings {
		byPath[f.Path] = append(byPath[f.Path], f.Rule)
		if f.Line < 1 || f.Column < 1 || f.EndLine < f.Line || f.Severity == "" || f.Category == "" || f.Message == "" {
			t.Errorf("malformed finding %+v", f)
		}
		if strings.Contains(f.Message, plantedKey) {
			t.Errorf("message echoes the key: %s", f.Message)
		}
		if f.Path == "src/app.py" && f.Rule == "py-eval" {
			src, err := os.ReadFile(filepath.Join(ws, "src", "app.py"))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(src), "\n")
			line := lines[f.Line-1]
			i := strings.Index(line, "eval(")
			wantCol := len(utf16.Encode([]rune(line[:i]))) + 1
			if f.Line != 5 || f.Column != wantCol {
				t.Errorf("py-eval at %d:%d, want 5:%d (UTF-16, after an emoji)", f.Line, f.Column, wantCol)
			}
		}
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	// Not: ignored/ (.gitignore), debug.log (*.log), src/tool.bin (binary),
	// src/generated.py (over max_file_size).
	if got := strings.Join(paths, " "); got != "src/app.py src/creds.py src/deploy.sh" {
		t.Errorf("files with findings: %s\n%s", got, r.stdout)
	}
}

func TestCheckSARIFIsValid(t *testing.T) {
	ws := checkWorkspace(t)
	out := filepath.Join(t.TempDir(), "aisbx.sarif")
	r := runCheck(t, ws, "--format", "sarif", "--output", out, ".")
	if r.code != ExitFailure || r.stdout != "" {
		t.Fatalf("exit %d (want 1), stdout %q; stderr: %s", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := sariftest.Validate(data); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(plantedKey)) {
		t.Error("the SARIF report contains the planted key")
	}
	for _, want := range []string{`"ruleId": "py-eval"`, `"primaryLocationLineHash"`, `"security-severity"`, `"uri": "src/creds.py"`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("SARIF lacks %s", want)
		}
	}
}

func TestCheckTextAndJUnit(t *testing.T) {
	ws := checkWorkspace(t)
	r := runCheck(t, ws, "--fail-on", "never")
	for _, want := range []string{"src/app.py\n", "py-eval", "3 findings"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("text output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "\x1b[") {
		t.Error("colour in output that is not a terminal")
	}
	j := runCheck(t, ws, "--format", "junit", "--fail-on", "never")
	if !strings.Contains(j.stdout, `<testsuites name="aisbx" tests="3" failures="3"`) {
		t.Errorf("junit:\n%s", j.stdout)
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestCheckChanged gates only what changed since a revision, in a real git
// repository: committed-then-edited, new untracked, but not unchanged files
// nor ignored ones.
func TestCheckChanged(t *testing.T) {
	ws := checkWorkspace(t)
	git(t, ws, "init", "-q", "-b", "main")
	git(t, ws, "add", "-A")
	git(t, ws, "commit", "-q", "-m", "base")
	git(t, ws, "tag", "base")

	if r := decodeJSON(t, runCheck(t, ws, "--changed", "--format", "json")); len(r.Findings) != 0 || r.FilesScanned != 0 {
		t.Fatalf("a clean tree has changes: %+v", r)
	}
	writeFile(t, filepath.Join(ws, "src", "new.py"), []byte("TOKEN = \""+plantedKey+"\"\n"))
	writeFile(t, filepath.Join(ws, "ignored", "also.py"), []byte("x = eval(y)\n"))
	writeFile(t, filepath.Join(ws, "src", "deploy.sh"), []byte("#!/bin/sh\necho hi\nwget -qO- https://x.example/i.sh | bash\n"))
	git(t, ws, "add", "src/deploy.sh")
	git(t, ws, "commit", "-q", "-m", "edit")

	paths := func(r cliRun) string {
		var ps []string
		for _, f := range decodeJSON(t, r).Findings {
			ps = append(ps, f.Path)
		}
		sort.Strings(ps)
		return strings.Join(ps, " ")
	}
	if got := paths(runCheck(t, ws, "--changed", "--format", "json", "--fail-on", "never")); got != "src/new.py" {
		t.Errorf("--changed (since HEAD) reported %q, want only the untracked src/new.py", got)
	}
	if got := paths(runCheck(t, ws, "--since", "base", "--format", "json", "--fail-on", "never")); got != "src/deploy.sh src/new.py" {
		t.Errorf("--since base reported %q, want src/deploy.sh src/new.py", got)
	}
	r := runCheck(t, ws, "--changed", "--since", "no-such-rev", ".")
	if r.code != ExitUsage || !strings.Contains(r.stderr, `"no-such-rev" is not a valid git revision`) {
		t.Errorf("bad revision: exit %d, stderr %q", r.code, r.stderr)
	}
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "a.py"), []byte("x = 1\n"))
	if r := runCheck(t, outside, "--changed"); r.code != ExitUsage || !strings.Contains(r.stderr, "not in a git repository") {
		t.Errorf("--changed outside git: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestCheckGitignoreInGitRepo: in a git work tree the listing comes from
// git, and a subdirectory path still obeys the root's .gitignore.
func TestCheckGitignoreInGitRepo(t *testing.T) {
	ws := checkWorkspace(t)
	git(t, ws, "init", "-q")
	writeFile(t, filepath.Join(ws, "src", "nested.log"), []byte("AWS_ACCESS_KEY_ID = \""+plantedKey+"\"\n"))
	out := decodeJSON(t, runCheck(t, filepath.Join(ws, "src"), "--format", "json", "--fail-on", "never", "."))
	for _, f := range out.Findings {
		if strings.HasSuffix(f.Path, ".log") || strings.HasPrefix(f.Path, "ignored/") || strings.Contains(f.Path, "tool.bin") {
			t.Errorf("ignored or binary file reported: %s", f.Path)
		}
		if !strings.HasPrefix(f.Path, "src/") {
			t.Errorf("path %q is not relative to the workspace root", f.Path)
		}
	}
	if len(out.Findings) == 0 {
		t.Fatal("nothing found under src/")
	}
}

func TestDoctorLintersListsEveryTool(t *testing.T) {
	lines := doctorLinters(context.Background(), t.TempDir())
	text := ""
	for _, c := range lines {
		if c.Status != "ok" && c.Status != "info" {
			t.Errorf("a linter line is %s: %+v", c.Status, c)
		}
		text += c.Name + " " + c.Detail + "\n"
	}
	for _, name := range []string{"go vet", "staticcheck", "golangci-lint", "ruff", "bandit", "eslint", "shellcheck"} {
		if !strings.Contains(text, name) {
			t.Errorf("doctor does not mention %s:\n%s", name, text)
		}
	}
}

// TestCheckRunsInstalledLinters: with the default checks, an installed
// linter's findings reach the report with their tool prefix.
func TestCheckRunsInstalledLinters(t *testing.T) {
	if _, err := exec.LookPath("shellcheck"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("shellcheck is not installed (apt-get install shellcheck)")
		}
		t.Skip("shellcheck is not installed")
	}
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "aisbx.toml"), []byte("[linters]\nenabled = [\"shellcheck\"]\n"))
	writeFile(t, filepath.Join(ws, "run.sh"), []byte("#!/bin/sh\n# 😀\necho $1\n"))
	out := decodeJSON(t, runCheck(t, ws, "--format", "json", "--fail-on", "never"))
	for _, f := range out.Findings {
		if f.Rule == "shellcheck/SC2086" && f.Category == "lint" && f.Path == "run.sh" && f.Line == 3 && f.Column == 6 && f.EndColumn == 8 {
			return
		}
	}
	t.Fatalf("no shellcheck/SC2086 at run.sh:3:6-8 in %+v", out.Findings)
}
