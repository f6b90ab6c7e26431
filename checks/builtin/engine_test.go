package builtin

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/config"
)

func names(e *checks.Engine) []string {
	var out []string
	for _, c := range e.Checks() {
		out = append(out, c.Name())
	}
	return out
}

func TestDefaultsEnableEveryCheck(t *testing.T) {
	e, err := NewEngine(t.TempDir(), config.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(e), ","); got != strings.Join(CheckNames, ",") {
		t.Fatalf("checks = %s, want %s", got, strings.Join(CheckNames, ","))
	}
	rules := Rules(e)
	cats := map[checks.Category]int{}
	for i, r := range rules {
		cats[r.Category]++
		if i > 0 && rules[i-1].ID >= r.ID {
			t.Fatalf("rules not sorted and unique at %s", r.ID)
		}
		if r.Title == "" || r.DocURL == "" {
			t.Errorf("rule %s lacks a title or doc link", r.ID)
		}
	}
	for _, c := range []checks.Category{checks.CategorySecret, checks.CategoryDangerous, checks.CategoryDependency} {
		if cats[c] == 0 {
			t.Errorf("no %s rules listed: %v", c, cats)
		}
	}
}

func TestEnabledSelectsChecks(t *testing.T) {
	cfg := config.Defaults()
	cfg.Checks.Enabled = []string{"dangerous", "secrets", "dangerous"}
	e, err := NewEngine(t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(e), ","); got != "dangerous,secrets" {
		t.Fatalf("checks = %s", got)
	}
}

// run checks src as the file at rel below root and fails on check errors.
func run(t *testing.T, e *checks.Engine, root, rel, src string) []checks.Finding {
	t.Helper()
	f := checks.NewFile(root, filepath.Join(root, rel), []byte(src))
	r := e.Run(context.Background(), f)
	for _, ce := range r.Errors {
		t.Errorf("check error: %v", ce)
	}
	return r.Findings
}

func TestDisabledRulesAndSeverityOverrides(t *testing.T) {
	root := t.TempDir()
	src := "import sys\nresult = eval(sys.argv[1])\n"
	cfg := config.Defaults()
	cfg.Checks.Enabled = []string{"dangerous"}
	e, err := NewEngine(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The rule id is found by running the check, not written down.
	fs := run(t, e, root, "a.py", src)
	if len(fs) == 0 {
		t.Fatal("the dangerous check found nothing in eval(sys.argv[1])")
	}
	rule, sev := fs[0].Rule, fs[0].Severity

	want := checks.SeverityInfo
	if sev == checks.SeverityInfo {
		want = checks.SeverityError
	}
	cfg.Checks.Severity = map[string]string{rule: want.String()}
	e, err = NewEngine(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if fs := run(t, e, root, "b.py", src); len(fs) == 0 || fs[0].Severity != want {
		t.Fatalf("severity override of %s not applied: %+v", rule, fs)
	}

	cfg.Checks.DisabledRules = []string{rule}
	e, err = NewEngine(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range run(t, e, root, "c.py", src) {
		if fd.Rule == rule {
			t.Fatalf("disabled rule %s still reported", rule)
		}
	}
}

func TestSecretsOptionsComeFromConfig(t *testing.T) {
	root := t.TempDir()
	secret := "ghp_" + "Zt3kQw9mXo2LpV7cRb4NyF6sHj8DaE1uGi5W" // assembled: no literal token in the source
	src := "token = \"" + secret + "\"\n"
	cfg := config.Defaults()
	cfg.Checks.Enabled = []string{"secrets"}
	e, err := NewEngine(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	fs := run(t, e, root, "a.py", src)
	if len(fs) == 0 {
		t.Fatal("no secret found")
	}
	for _, fd := range fs {
		if strings.Contains(fd.Message, secret) {
			t.Errorf("message echoes the secret: %s", fd.Message)
		}
	}
	cfg.Secrets.Allowlist.Paths = []string{"allowed/**"}
	cfg.Checks.DisabledRules = []string{fs[0].Rule, "py-eval"} // a dangerous id must not upset secrets
	e, err = NewEngine(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, e, root, "allowed/b.py", src); len(got) != 0 {
		t.Errorf("allowlisted path still reported: %+v", got)
	}
}

func TestBadConfigIsAnError(t *testing.T) {
	tests := map[string]func(*config.Config){
		"allowlist regex": func(c *config.Config) { c.Secrets.Allowlist.Regexes = []string{"(unclosed"} },
		"unknown linter":  func(c *config.Config) { c.Linters.Enabled = []string{"rufff"} },
		"unknown check":   func(c *config.Config) { c.Checks.Enabled = []string{"secret"} },
		"severity":        func(c *config.Config) { c.Checks.Severity = map[string]string{"x": "fatal"} },
	}
	for name, mutate := range tests {
		cfg := config.Defaults()
		mutate(cfg)
		if _, err := NewEngine(t.TempDir(), cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestLintersReachTheEngine runs a real linter through the assembled engine:
// its findings arrive as lint findings, with the linters' longer timeout.
func TestLintersReachTheEngine(t *testing.T) {
	if _, err := exec.LookPath("shellcheck"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("shellcheck is not installed")
		}
		t.Skip("shellcheck is not installed")
	}
	root := t.TempDir()
	path := filepath.Join(root, "run.sh")
	src := "#!/bin/sh\necho $1\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config.Defaults()
	cfg.Checks.Enabled = []string{"linters"}
	cfg.Linters.Enabled = []string{"shellcheck"}
	e, err := NewEngine(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := checks.NewFile(root, path, []byte(src))
	f.OnDisk = true
	r := e.Run(context.Background(), f)
	var rules []string
	for _, fd := range r.Findings {
		if fd.Category != checks.CategoryLint || fd.Tool != "shellcheck" || fd.Check != "linters" {
			t.Errorf("finding %+v", fd)
		}
		rules = append(rules, fd.Rule)
	}
	sort.Strings(rules)
	if len(rules) == 0 || rules[0] != "shellcheck/SC2086" {
		t.Fatalf("rules = %v, errors = %v", rules, r.Errors)
	}
}

type stuckCheck struct{}

func (stuckCheck) Name() string              { return "stuck" }
func (stuckCheck) Applies(*checks.File) bool { return true }
func (stuckCheck) Run(context.Context, *checks.File) ([]checks.Finding, error) {
	select {} // ignores its context: the engine must still return
}

func TestEngineAbandonsAStuckCheck(t *testing.T) {
	e := checks.NewEngine(checks.Options{CheckTimeouts: map[string]time.Duration{"stuck": 20 * time.Millisecond}}, stuckCheck{})
	r := e.Run(context.Background(), checks.NewFile("", "/x", nil))
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Error(), "timed out") {
		t.Fatalf("errors = %v", r.Errors)
	}
}
