// Package nvim_test drives real headless Neovim against the built aisbxd.
// Tests need nvim on PATH (Debian's 0.7.2 is enough); with CI=true a
// missing nvim fails the run instead of skipping.
package nvim_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var aisbxd string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "aisbx-nvim-")
	if err != nil {
		panic(err)
	}
	aisbxd = filepath.Join(dir, "aisbxd")
	if out, err := exec.Command("go", "build", "-o", aisbxd, "../../cmd/aisbxd").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// nvimBinary finds the Neovim to test with: $NVIM_BIN, else nvim on PATH.
func nvimBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("NVIM_BIN"); p != "" {
		return p
	}
	p, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("nvim not found and CI=true: install it (apt-get install -y neovim)")
		}
		t.Skip("nvim not found; install neovim to run editor tests")
	}
	return p
}

// runLua runs a test script in headless Neovim with its own daemon.
func runLua(t *testing.T, script string, env ...string) string {
	t.Helper()
	nvim := nvimBinary(t)
	tmp, err := os.MkdirTemp("", "aisbx-nv-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stop := exec.Command(aisbxd, "daemon", "--stop")
		stop.Env = append(os.Environ(), "AISBX_SOCKET="+filepath.Join(tmp, "d.sock"))
		stop.Run()
		os.RemoveAll(tmp)
	})
	cmd := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(),
		"AISBXD="+aisbxd,
		"AISBX_SOCKET="+filepath.Join(tmp, "d.sock"),
		"AISBX_CACHE_DIR="+filepath.Join(tmp, "cache"),
		"AISBX_CONFIG="+filepath.Join(tmp, "none.toml"),
		"XDG_STATE_HOME="+filepath.Join(tmp, "state"),
		"XDG_DATA_HOME="+filepath.Join(tmp, "data"),
	)
	cmd.Env = append(cmd.Env, env...)
	done := make(chan struct{})
	var out []byte
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("nvim timed out:\n%s", out)
	}
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(tmp, "cache", "daemon.log"))
		t.Fatalf("nvim failed: %v\n%s\ndaemon log:\n%s", err, out, log)
	}
	return string(out)
}

func TestConfigDiagnosticInNeovim(t *testing.T) {
	ws := t.TempDir()
	cfg := "[lsp]\ndebounce = \"50ms\"\n\n[sandbox]\npool_sise = 3\n"
	if err := os.WriteFile(filepath.Join(ws, "aisbx.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runLua(t, "test/config_diagnostic.lua", "WORKSPACE="+ws)
	for _, want := range []string{"unknown key reported on line 5", "cleared the diagnostic"} {
		if !strings.Contains(out, want) {
			t.Errorf("nvim output lacks %q:\n%s", want, out)
		}
	}
}
