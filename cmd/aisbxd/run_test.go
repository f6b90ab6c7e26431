package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/internal/testfs"

	"github.com/aisbx/aisbx/internal/sbxtest"
)

type runJSON struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	ExitCode int    `json:"exit_code"`
	Image    struct {
		Ref    string `json:"ref"`
		Digest string `json:"digest"`
	} `json:"image"`
	Tests []struct {
		Name     string `json:"name"`
		Status   string `json:"status"`
		Location string `json:"location"`
	} `json:"tests"`
	Warm   bool   `json:"warm"`
	Record string `json:"record"`
}

// goWorkspace is a git repo of testsel's Go sample, configured to build its
// image from the local base.
func goWorkspace(t *testing.T) string {
	t.Helper()
	base := sbxtest.NeedBase(t, "go")
	root := filepath.Join(t.TempDir(), "gows")
	testfs.CopyTree(t, "../../internal/testsel/testdata/workspaces/gows", root)
	os.WriteFile(filepath.Join(root, "aisbx.toml"), []byte("[sandbox.profiles.go]\nbase = \""+base+"\"\n"), 0o644)
	testfs.GitRepo(t, root)
	return root
}

func (e *testEnv) aisbxdIn(t *testing.T, dir string, args ...string) ([]byte, int) {
	t.Helper()
	cmd := exec.Command(aisbxd, args...)
	cmd.Env, cmd.Dir = e.env, dir
	out, _ := cmd.Output()
	return out, cmd.ProcessState.ExitCode()
}

func daemonAnswers(t *testing.T, e *testEnv) bool {
	st, code := e.status(t)
	return code == 0 && st.Running
}

// waitWarm waits until `aisbxd status --json` shows a warm container in the
// workspace's pool: the daemon keeps a CLI-only workspace (and its pool)
// open between calls.
func waitWarm(t *testing.T, e *testEnv, root string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	var out []byte
	for time.Now().Before(deadline) {
		out, _ = e.aisbxdIn(t, root, "status", "--json")
		var st struct {
			Workspaces []struct {
				Root    string `json:"root"`
				Sandbox *struct {
					Pools []struct {
						Idle int `json:"idle"`
					} `json:"pools"`
				} `json:"sandbox"`
			} `json:"workspaces"`
		}
		json.Unmarshal(out, &st)
		for _, w := range st.Workspaces {
			if w.Root == root && w.Sandbox != nil && len(w.Sandbox.Pools) > 0 && w.Sandbox.Pools[0].Idle > 0 {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("the workspace's pool never warmed up; status:\n%s", out)
}

// TestRunCLI follows the README: build the image, then `aisbxd run --json
// -- go test ./...` on a real module, cold; then affected runs through a
// daemon, where the second finds its pool warm. The exit code is the job's.
func TestRunCLI(t *testing.T) {
	e := newTestEnv(t)
	root := goWorkspace(t)
	if out, code := e.aisbxdIn(t, root, "image", "build", "--dir", root); code != 0 {
		t.Fatalf("image build: exit %d\n%s", code, out)
	}
	out, code := e.aisbxdIn(t, root, "run", "--json", "--no-daemon", "--", "go", "test", "-json", "./...")
	var res runJSON
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("run --json: %v\n%s", err, out)
	}
	if code != 0 || res.Status != "passed" || !strings.HasPrefix(res.Image.Digest, "sha256:") || len(res.Tests) == 0 || res.Warm {
		t.Fatalf("cold run: exit %d %+v", code, res)
	}

	// Break it; run the affected tests through the daemon twice.
	b, _ := os.ReadFile("../../internal/testsel/testdata/workspaces/breaks/gows/geom/geom.go")
	os.WriteFile(filepath.Join(root, "geom", "geom.go"), b, 0o644)
	d := exec.Command(aisbxd, "daemon")
	d.Env = e.env
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Process.Kill(); d.Wait() })
	for deadline := time.Now().Add(10 * time.Second); e.daemonPID() == 0 || !daemonAnswers(t, e); {
		if time.Now().After(deadline) {
			t.Fatal("the daemon did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	for i := 0; i < 2; i++ {
		if i == 1 {
			waitWarm(t, e, root)
		}
		out, code = e.aisbxdIn(t, root, "run", "--json", "--affected")
		res = runJSON{}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("run %d: %v\n%s", i, err, out)
		}
		failedAt := ""
		for _, tt := range res.Tests {
			if tt.Status == "failed" {
				failedAt = tt.Name + "@" + tt.Location
			}
		}
		if code != 1 || res.Status != "failed" || failedAt != "TestPerimeter@geom/geom_test.go:13" || res.Record == "" {
			t.Fatalf("affected run %d: exit %d, %+v", i, code, res)
		}
	}
	if !res.Warm {
		t.Errorf("the second run through the daemon did not use a warm container")
	}
	// The record reads back and says how to reproduce the run.
	show, code := e.aisbxdIn(t, root, "runs", "show", res.ID)
	if code != 0 || !strings.Contains(string(show), res.Image.Digest) || !strings.Contains(string(show), "aisbxd run") {
		t.Fatalf("runs show: exit %d\n%s", code, show)
	}
}
