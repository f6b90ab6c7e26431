package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// privateEngine is a dockerd of the test's own, on its own socket and
// directories, so stopping it disturbs no other user of the machine's
// engine.
type privateEngine struct {
	t      *testing.T
	dir    string
	host   string
	bridge string
	cmd    *exec.Cmd
}

func startPrivateEngine(t *testing.T) *privateEngine {
	t.Helper()
	needEngine(t)
	if _, err := exec.LookPath("dockerd"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and no dockerd: %v", err)
		}
		t.Skip("no dockerd binary to run a private engine")
	}
	dir, err := os.MkdirTemp("", "aisbx-dockerd-")
	if err != nil {
		t.Fatal(err)
	}
	e := &privateEngine{t: t, dir: dir, host: "unix://" + filepath.Join(dir, "d.sock")}
	// dockerd run with `--bridge none` deletes the host's docker0, which the
	// machine's own engine needs: give the private engine a bridge of its own.
	e.bridge = fmt.Sprintf("aisbxt%d", os.Getpid()%10000)
	if out, err := exec.Command("ip", "link", "add", e.bridge, "type", "bridge").CombinedOutput(); err != nil {
		_ = os.RemoveAll(dir)
		if os.Getenv("CI") == "true" {
			t.Fatalf("creating bridge %s for a private dockerd: %v %s", e.bridge, err, out)
		}
		t.Skipf("cannot create a bridge for a private dockerd (needs root and iproute2): %v %s", err, out)
	}
	_ = exec.Command("ip", "addr", "add", "10.254.213.1/24", "dev", e.bridge).Run()
	t.Cleanup(func() {
		e.stop()
		_ = exec.Command("ip", "link", "del", e.bridge).Run()
		_ = os.RemoveAll(dir)
	})
	e.start()
	return e
}

func (e *privateEngine) start() {
	e.t.Helper()
	log, err := os.OpenFile(filepath.Join(e.dir, "dockerd.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		e.t.Fatal(err)
	}
	e.cmd = exec.Command("dockerd", "--host", e.host, "--data-root", filepath.Join(e.dir, "data"),
		"--exec-root", filepath.Join(e.dir, "x"), "--pidfile", filepath.Join(e.dir, "d.pid"),
		"--bridge", e.bridge, "--iptables=false", "--ip-masq=false", "--log-level", "warn")
	e.cmd.Stdout, e.cmd.Stderr = log, log
	e.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := e.cmd.Start(); err != nil {
		e.t.Fatalf("starting a private dockerd: %v", err)
	}
	eng, err := connect(e.host)
	if err != nil {
		e.t.Fatal(err)
	}
	defer eng.cli.Close()
	for i := 0; ; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := eng.info(ctx)
		cancel()
		if err == nil {
			return
		}
		if i > 300 {
			b, _ := os.ReadFile(filepath.Join(e.dir, "dockerd.log"))
			e.t.Fatalf("private dockerd did not come up: %v\n%s", err, b)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// stop ends dockerd the way an admin does (SIGTERM) and waits for it.
func (e *privateEngine) stop() {
	if e.cmd == nil || e.cmd.Process == nil {
		return
	}
	_ = e.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = e.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		_ = syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	e.cmd = nil
}

// busyboxRootfs is a tar of a root filesystem with only a static busybox.
func busyboxRootfs(t *testing.T) []byte {
	t.Helper()
	bb, err := exec.LookPath("busybox")
	if err != nil {
		t.Skip("no busybox (apt-get install busybox-static)")
	}
	bin, err := os.ReadFile(bb)
	if err != nil {
		t.Fatal(err)
	}
	list, err := exec.Command(bb, "--list").Output()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, d := range []string{"bin/", "tmp/", "etc/", "work/"} {
		_ = tw.WriteHeader(&tar.Header{Name: d, Typeflag: tar.TypeDir, Mode: 0o1777})
	}
	_ = tw.WriteHeader(&tar.Header{Name: "bin/busybox", Mode: 0o755, Size: int64(len(bin))})
	_, _ = tw.Write(bin)
	for _, a := range strings.Fields(string(list)) {
		if a != "busybox" {
			_ = tw.WriteHeader(&tar.Header{Name: "bin/" + a, Typeflag: tar.TypeSymlink, Linkname: "busybox", Mode: 0o777})
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestEngineRestart stops the engine under a running job: the run ends
// with engine-error and a reason, the pool rebuilds itself once the engine
// is back, and no container of the broken run is left.
func TestEngineRestart(t *testing.T) {
	e := startPrivateEngine(t)
	const img = "aisbx-test/busybox:latest"
	sb, err := New(t.Context(), Options{Host: e.host, PoolSize: 1, Memory: 128 << 20, TmpfsSize: 16 << 20,
		Profiles: map[string]Profile{"go": {Image: img, Mounts: []Mount{}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close(context.Background())
	if _, err := sb.ImportRootfs(t.Context(), bytes.NewReader(busyboxRootfs(t)), img, []string{"ENV PATH=/bin"}); err != nil {
		t.Fatal(err)
	}
	ws := writeTree(t, map[string]string{"a.txt": "a"})
	if err := sb.Warm(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, sb, "go", 1)

	started := make(chan struct{}, 1)
	done := make(chan *Result, 1)
	go func() {
		res, err := sb.Run(context.Background(), Job{Workspace: ws, Profile: "go", Cmd: []string{"sh", "-c", "echo started; sleep 600"},
			Output: func(_ string, p []byte) {
				if bytes.Contains(p, []byte("started")) {
					select {
					case started <- struct{}{}:
					default:
					}
				}
			}})
		if err != nil {
			t.Errorf("run: %v", err)
		}
		done <- res
	}()
	select {
	case <-started:
	case res := <-done:
		t.Fatalf("the run ended before the engine stopped: %+v", res)
	case <-time.After(2 * time.Minute):
		t.Fatal("the job never started")
	}
	e.stop()
	res := <-done
	if res == nil {
		t.FailNow()
	}
	if res.Status != StatusEngineError || !strings.Contains(res.Reason, "engine") {
		t.Errorf("run status %s (%q), want engine-error with a reason", res.Status, res.Reason)
	}
	// Meanwhile a run fails fast with an error that says the engine is down.
	if _, err := sb.Run(t.Context(), Job{Workspace: ws, Profile: "go", Cmd: []string{"true"}}); !errors.Is(err, ErrEngineUnreachable) {
		t.Errorf("run with the engine down: %v, want ErrEngineUnreachable", err)
	} else if !strings.Contains(err.Error(), "is dockerd running?") {
		t.Errorf("the engine-down error says no way out: %v", err)
	}

	e.start()
	waitIdle(t, sb, "go", 1)
	next, err := sb.Run(t.Context(), Job{Workspace: ws, Profile: "go", Cmd: []string{"cat", "a.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if next.Status != StatusPassed || string(next.Output) != "a" {
		t.Errorf("run after the restart: %s %q %s", next.Status, next.Output, next.Reason)
	}
	if err := waitGone(t, sb, res.ContainerID); err != nil {
		t.Errorf("the broken run's container %s is still there (%v)", shortID(res.ContainerID), err)
	}
	if err := sb.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	assertNoContainers(t, sb)
}

func waitIdle(t *testing.T, sb *Sandbox, profile string, n int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		st, _ := sb.Pool(profile)
		if st.Idle >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the %s pool never reached %d idle containers: %+v", profile, n, st)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
