// Package vscode_test checks the VS Code extension: offline (tsc, eslint,
// the node --test unit tests, vsce package) and end to end in a real VS Code
// (code-server, driven by headless chromium through test/e2e/run.mjs). Node
// 24 and code-server come from scripts/editors (node.sh, code-server.sh),
// node_modules from `npm ci` here (scripts/editors/setup.sh does all three).
// With CI=true anything missing fails the run instead of skipping.
package vscode_test

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/editors/edtest"
)

// nodeEnv is the environment for npm and node: node 24 first on PATH.
func nodeEnv(t *testing.T) []string {
	t.Helper()
	dir := edtest.Installed("node.sh")
	if dir == "" {
		edtest.Missing(t, "no node 24: run scripts/editors/node.sh")
	}
	if _, err := os.Stat("node_modules/.bin/vsce"); err != nil {
		edtest.Missing(t, "editors/vscode/node_modules is missing: run `npm ci` there (scripts/editors/setup.sh)")
	}
	return append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// npm runs an npm script and returns its output; it fails the test on error.
func npm(t *testing.T, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", args...)
	cmd.Env = env
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	t.Logf("npm %s (%s)", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	return string(out)
}

// packageVSIX builds the .vsix into dir and returns its path.
func packageVSIX(t *testing.T, env []string, dir string) string {
	t.Helper()
	vsix := filepath.Join(dir, "aisbx.vsix")
	npm(t, env, "run", "package", "--", "--out", vsix)
	return vsix
}

func TestOfflineChecks(t *testing.T) {
	env := nodeEnv(t)
	t.Run("typecheck", func(t *testing.T) { npm(t, env, "run", "typecheck") })
	t.Run("lint", func(t *testing.T) { npm(t, env, "run", "lint") })
	t.Run("unit", func(t *testing.T) {
		out := npm(t, env, "test")
		if !strings.Contains(out, "ℹ fail 0") || strings.Contains(out, "ℹ pass 0") {
			t.Fatalf("unit tests did not all pass:\n%s", out)
		}
	})
	t.Run("package", func(t *testing.T) {
		vsix := packageVSIX(t, env, t.TempDir())
		z, err := zip.OpenReader(vsix)
		if err != nil {
			t.Fatalf("opening %s: %v", vsix, err)
		}
		defer z.Close()
		var names []string
		for _, f := range z.File {
			names = append(names, f.Name)
		}
		for _, want := range []string{"extension/package.json", "extension/dist/extension.js", "extension/readme.md"} {
			if !contains(names, want) {
				t.Errorf("%s lacks %s: %v", vsix, want, names)
			}
		}
		for _, n := range names {
			if strings.Contains(n, "node_modules/") || strings.HasSuffix(n, ".ts") || strings.HasSuffix(n, ".go") {
				t.Errorf("%s ships %s: the bundle must be self-contained", vsix, n)
			}
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestEndToEndInCodeServer installs the .vsix into code-server, opens a
// workspace and checks diagnostics, the status bar, quick fixes and a
// sandbox run as a user sees them. Screenshots go to $AISBX_E2E_SHOTS or a
// new temp dir, which the test logs and keeps.
func TestEndToEndInCodeServer(t *testing.T) {
	env := nodeEnv(t)
	codeServer := edtest.Installed("code-server.sh")
	if codeServer == "" {
		edtest.Missing(t, "no code-server or chromium: run scripts/editors/code-server.sh")
	}
	edtest.NeedDocker(t)
	edtest.NeedImage(t, "aisbx-base/go", "scripts/images/go-base.sh")

	tmp := t.TempDir()
	aisbxd, err := edtest.BuildAisbxd(tmp)
	if err != nil {
		t.Fatal(err)
	}
	ws := edtest.Workspace(t, "calc", map[string]string{
		"settings.py": edtest.SecretFile(),
	})
	// The calc workspace's aisbx.toml, plus a typo on its own line.
	cfg, err := os.ReadFile(filepath.Join(ws, "aisbx.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "aisbx.toml"), append(cfg, []byte("\n[sandbox]\npool_sise = 3\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	edtest.BuildImage(t, aisbxd, ws)
	vsix := packageVSIX(t, env, tmp)

	shots := os.Getenv("AISBX_E2E_SHOTS")
	if shots == "" {
		shots, err = os.MkdirTemp("", "aisbx-vscode-e2e-shots-")
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("screenshots: %s", shots)
	sock := filepath.Join(tmp, "d.sock")
	t.Cleanup(func() { edtest.StopDaemon(aisbxd, sock) })

	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "test/e2e/run.mjs")
	cmd.Env = append(env,
		"AISBX_E2E_CODE_SERVER="+codeServer,
		"AISBX_E2E_VSIX="+vsix,
		"AISBX_E2E_AISBXD="+aisbxd,
		"AISBX_E2E_WORKSPACE="+ws,
		"AISBX_E2E_SHOTS="+shots,
		"AISBX_SOCKET="+sock,
		"AISBX_CACHE_DIR="+filepath.Join(tmp, "cache"),
		"AISBX_CONFIG="+filepath.Join(tmp, "none.toml"),
	)
	// code-server runs with its own HOME; aisbxd must still see this user's
	// Go caches, which take part in the sandbox image's identity.
	for _, v := range []string{"GOMODCACHE", "GOCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", v).Output()
		if err == nil {
			cmd.Env = append(cmd.Env, v+"="+strings.TrimSpace(string(out)))
		}
	}
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := time.Now()
	err = cmd.Run()
	t.Logf("test/e2e/run.mjs (%s):\n%s", time.Since(start).Round(time.Millisecond), buf.String())
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(tmp, "cache", "daemon.log"))
		t.Fatalf("end-to-end test failed: %v (screenshots in %s)\ndaemon log:\n%s", err, shots, edtest.Tail(log, 40))
	}
}
