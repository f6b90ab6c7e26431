// Package nvim_test drives real headless Neovim against the built aisbxd:
// Debian's 0.7.2 (nvim on PATH) and a current release (0.10, unpacked from
// Debian trixie by scripts/editors/nvim-current.sh). NVIM_BIN tests one
// binary instead. With CI=true a missing editor, Docker engine or base image
// fails the run instead of skipping.
package nvim_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/editors/edtest"
)

var aisbxd string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "aisbx-nvim-")
	if err != nil {
		panic(err)
	}
	aisbxd, err = edtest.BuildAisbxd(dir)
	if err != nil {
		os.Stderr.WriteString(err.Error())
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// editor is one Neovim binary to test with.
type editor struct {
	version string // "0.7.2", "0.10.4"
	bin     string
}

var versionRE = regexp.MustCompile(`NVIM v(\d+\.\d+\.\d+)`)

func newEditor(t *testing.T, bin string) editor {
	t.Helper()
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", bin, err)
	}
	m := versionRE.FindSubmatch(out)
	if m == nil {
		t.Fatalf("%s --version printed no version:\n%s", bin, out)
	}
	return editor{version: string(m[1]), bin: bin}
}

// editors lists the Neovims to test with: $NVIM_BIN alone, else Debian's
// nvim and the current one that scripts/editors/nvim-current.sh installed.
func editors(t *testing.T) []editor {
	t.Helper()
	if p := os.Getenv("NVIM_BIN"); p != "" {
		return []editor{newEditor(t, p)}
	}
	var out []editor
	if p, err := exec.LookPath("nvim"); err == nil {
		out = append(out, newEditor(t, p))
	} else if edtest.InCI() {
		t.Fatal("CI=true: nvim not found: install it (apt-get install -y neovim)")
	}
	if p := edtest.Installed("nvim-current.sh"); p != "" {
		out = append(out, newEditor(t, p))
	} else if edtest.InCI() {
		t.Fatal("CI=true: no current Neovim: run scripts/editors/nvim-current.sh")
	}
	if len(out) == 0 {
		t.Skip("no Neovim: apt-get install -y neovim, and scripts/editors/nvim-current.sh for 0.10")
	}
	return out
}

// forEachEditor runs fn as a subtest per Neovim.
func forEachEditor(t *testing.T, fn func(t *testing.T, nv editor)) {
	for _, nv := range editors(t) {
		t.Run("nvim-"+nv.version, func(t *testing.T) { fn(t, nv) })
	}
}

// runLua runs a test script in headless Neovim with its own daemon (its
// own socket and cache dir). With plugin, the plugin is on 'runtimepath'.
func runLua(t *testing.T, nv editor, script string, plugin bool, env ...string) string {
	t.Helper()
	tmp, err := os.MkdirTemp("", "aisbx-nv-")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(tmp, "d.sock")
	t.Cleanup(func() {
		edtest.StopDaemon(aisbxd, sock)
		os.RemoveAll(tmp)
	})
	pluginDir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--headless", "-u", "NONE", "-i", "NONE", "-n"}
	if plugin {
		args = append(args, "--cmd", "set rtp^="+pluginDir)
	}
	args = append(args, "-c", "luafile "+script)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nv.bin, args...)
	cmd.Env = append(os.Environ(),
		"AISBXD="+aisbxd,
		"AISBX_NVIM_TEST="+filepath.Join(pluginDir, "test"),
		"AISBX_SOCKET="+sock,
		"AISBX_CACHE_DIR="+filepath.Join(tmp, "cache"),
		"AISBX_CONFIG="+filepath.Join(tmp, "none.toml"),
		"XDG_STATE_HOME="+filepath.Join(tmp, "state"),
		"XDG_DATA_HOME="+filepath.Join(tmp, "data"),
	)
	cmd.Env = append(cmd.Env, env...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := time.Now()
	err = cmd.Run()
	out := buf.String()
	if ctx.Err() != nil {
		t.Fatalf("nvim %s timed out running %s:\n%s", nv.version, script, out)
	}
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(tmp, "cache", "daemon.log"))
		t.Fatalf("nvim %s failed running %s: %v\n%s\ndaemon log:\n%s", nv.version, script, err, out, edtest.Tail(log, 60))
	}
	t.Logf("nvim %s %s (%s):\n%s", nv.version, script, time.Since(start).Round(time.Millisecond), out)
	return out
}

// wantLines fails unless out has every line.
func wantLines(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("nvim output lacks %q:\n%s", w, out)
		}
	}
}

func TestConfigDiagnosticInNeovim(t *testing.T) {
	forEachEditor(t, func(t *testing.T, nv editor) {
		ws := edtest.Workspace(t, "", map[string]string{"aisbx.toml": edtest.BadConfig})
		out := runLua(t, nv, "test/config_diagnostic.lua", false, "WORKSPACE="+ws)
		wantLines(t, out, "unknown key reported on line 5", "cleared the diagnostic")
	})
}

func TestPluginStartsAndConfigures(t *testing.T) {
	forEachEditor(t, func(t *testing.T, nv editor) {
		ws := edtest.Workspace(t, "", map[string]string{
			"aisbx.toml":  edtest.BadConfig,
			"sub/deep.go": "package sub\n",
		})
		out := runLua(t, nv, "test/plugin_start.lua", true, "WORKSPACE="+ws)
		wantLines(t, out,
			"the five user commands exist",
			"unknown key reported on line 5",
			"the aisbx diagnostics namespace has the plugin's options",
			"sub/deep.go attached to the same client",
			"AisbxStatus shows aisbxd")
	})
}

func TestLspConfigFile(t *testing.T) {
	forEachEditor(t, func(t *testing.T, nv editor) {
		ws := edtest.Workspace(t, "", map[string]string{"aisbx.toml": edtest.BadConfig})
		out := runLua(t, nv, "test/lsp_enable.lua", true, "WORKSPACE="+ws)
		wantLines(t, out, "lsp/aisbx.lua: cmd "+aisbxd+" serve --stdio")
	})
}

func TestSecretDiagnosticInNeovim(t *testing.T) {
	forEachEditor(t, func(t *testing.T, nv editor) {
		ws := edtest.Workspace(t, "", map[string]string{"aisbx.toml": "", "settings.py": edtest.SecretFile()})
		key := edtest.FakeAWSKey()
		out := runLua(t, nv, "test/secret_diagnostic.lua", true, "WORKSPACE="+ws, "SECRET_PREFIX=AKIA", "SECRET_FULL="+key)
		wantLines(t, out, "secret reported on line 3")
		if strings.Contains(out, key) {
			t.Errorf("the whole key appears in the editor's output")
		}
	})
}

// TestAgentSecretInUnopenedFile: a key an agent writes to a file the editor
// never opened still reaches the editor, through the daemon's watcher and
// background check.
func TestAgentSecretInUnopenedFile(t *testing.T) {
	forEachEditor(t, func(t *testing.T, nv editor) {
		ws := edtest.Workspace(t, "", map[string]string{"aisbx.toml": "", "main.py": "print('hi')\n"})
		key := edtest.FakeAWSKey()
		out := runLua(t, nv, "test/agent_secret.lua", true, "WORKSPACE="+ws,
			"AGENT_TEXT=AWS_ACCESS_KEY_ID = \""+key+"\"", "SECRET_FULL="+key)
		wantLines(t, out, "agent-written file reported: aws-access-key-id on line 1")
		if strings.Contains(out, key) {
			t.Errorf("the whole key appears in the editor's output")
		}
	})
}

func TestCheckhealthInNeovim(t *testing.T) {
	edtest.NeedDocker(t)
	forEachEditor(t, func(t *testing.T, nv editor) {
		ws := edtest.Workspace(t, "", map[string]string{"aisbx.toml": ""})
		out := runLua(t, nv, "test/checkhealth.lua", true, "WORKSPACE="+ws)
		wantLines(t, out, "checkhealth aisbx passes")
	})
}

func TestSandboxRunFromCodeActionInNeovim(t *testing.T) {
	edtest.NeedDocker(t)
	edtest.NeedImage(t, "aisbx-base/go", "scripts/images/go-base.sh")
	forEachEditor(t, func(t *testing.T, nv editor) {
		ws := edtest.Workspace(t, "calc", nil)
		edtest.BuildImage(t, aisbxd, ws)
		out := runLua(t, nv, "test/sandbox_run.lua", true, "WORKSPACE="+ws)
		wantLines(t, out,
			"code actions at TestAdd:",
			"the failing assertion has a diagnostic on line 7",
			"progress reached the previous $/progress handler",
			"AisbxLastRun: 1 failed",
			"AisbxRunNearest ran TestSub: 1 passed",
			"AisbxRunFile: 1 failed, 1 passed")
	})
}

func TestFormatMatchesVSCode(t *testing.T) {
	testdata, err := filepath.Abs("../vscode/test/testdata")
	if err != nil {
		t.Fatal(err)
	}
	forEachEditor(t, func(t *testing.T, nv editor) {
		out := runLua(t, nv, "test/format.lua", true, "VSCODE_TESTDATA="+testdata)
		wantLines(t, out, "summary lines match the VS Code table", "a real aisbxd run is worded as aisbxd words it")
	})
}
