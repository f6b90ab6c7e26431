package edtest

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// RepoRoot is the aisbx checkout this file belongs to.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// InCI reports whether missing tools must fail the run (CI=true).
func InCI() bool { return os.Getenv("CI") == "true" }

// Missing fails under CI and skips otherwise.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if InCI() {
		t.Fatalf("CI=true: "+format, args...)
	}
	t.Skipf(format, args...)
}

// BuildAisbxd builds cmd/aisbxd into dir and returns the binary's path.
func BuildAisbxd(dir string) (string, error) {
	bin := filepath.Join(dir, "aisbxd")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/aisbxd")
	cmd.Dir = RepoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/aisbxd: %w\n%s", err, out)
	}
	return bin, nil
}

// Installed asks an install script of scripts/editors for what it installed,
// without installing (its --print mode); "" when it is not installed.
func Installed(script string) string {
	out, err := exec.Command(filepath.Join(RepoRoot(), "scripts", "editors", script), "--print").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// NeedDocker skips (fails under CI) without a reachable Docker engine.
func NeedDocker(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		Missing(t, "no Docker engine (docker info: %v: %s); scripts/setup.sh starts one", err, bytes.TrimSpace(out))
	}
}

// NeedImage skips (fails under CI) when the engine lacks a local image.
func NeedImage(t testing.TB, ref, script string) {
	t.Helper()
	if err := exec.Command("docker", "image", "inspect", ref).Run(); err != nil {
		Missing(t, "no %s image: build it with %s", ref, script)
	}
}

// Workspace copies testdata/NAME into a new temp dir, adds files (path ->
// content), and returns the dir.
func Workspace(t testing.TB, name string, files map[string]string) string {
	t.Helper()
	src := filepath.Join(RepoRoot(), "editors", "edtest", "testdata", name)
	dst := t.TempDir()
	if name != "" {
		err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			if d.IsDir() {
				return os.MkdirAll(filepath.Join(dst, rel), 0o755)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
		})
		if err != nil {
			t.Fatalf("copying %s: %v", src, err)
		}
	}
	for rel, content := range files {
		p := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// FakeAWSKey is an access key id of the right shape that is not AWS's
// documented example; built at run time so that no scanner of this repo
// trips on it.
func FakeAWSKey() string { return "AKIA" + strings.ToUpper("q7zt3lnv4xw2rm6p") }

// SecretFile is a Python file whose line 3 holds FakeAWSKey.
func SecretFile() string {
	return "import os\n\nAWS_ACCESS_KEY_ID = \"" + FakeAWSKey() + "\"\nREGION = os.environ.get(\"AWS_REGION\")\n"
}

// BadConfig is an aisbx.toml whose line 5 holds an unknown key.
const BadConfig = "[lsp]\ndebounce = \"50ms\"\n\n[sandbox]\npool_sise = 3\n"

// BuildImage builds ws's Go sandbox image from aisbx-base/go before an
// editor asks for a run, so that the run itself is what a test waits for.
func BuildImage(t testing.TB, aisbxd, ws string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	out, err := exec.CommandContext(ctx, aisbxd, "image", "build", "--dir", ws, "--base", "aisbx-base/go").CombinedOutput()
	if err != nil {
		t.Fatalf("aisbxd image build --dir %s --base aisbx-base/go: %v\n%s", ws, err, out)
	}
	t.Logf("sandbox image ready in %s: %s", time.Since(start).Round(time.Millisecond), bytes.TrimSpace(out))
}

// StopDaemon asks the daemon on socket to exit (tests give each run its own).
func StopDaemon(aisbxd, socket string) {
	cmd := exec.Command(aisbxd, "daemon", "--stop")
	cmd.Env = append(os.Environ(), "AISBX_SOCKET="+socket)
	_ = cmd.Run()
}

// Tail returns the last n lines of b.
func Tail(b []byte, n int) string {
	s := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(s) > n {
		s = s[len(s)-n:]
	}
	return strings.Join(s, "\n")
}
