package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aisbx/aisbx/internal/lsptest"
)

// aisbxd is the binary under test, built once by TestMain.
var aisbxd string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "aisbxd-test-")
	if err != nil {
		panic(err)
	}
	aisbxd = filepath.Join(dir, "aisbxd")
	out, err := exec.Command("go", "build", "-o", aisbxd, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building aisbxd: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testEnv isolates a test's daemon, logs and config from the user's.
type testEnv struct {
	dir    string
	socket string
	env    []string
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	dir, err := os.MkdirTemp("", "aisbx-e2e-") // short: socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	e := &testEnv{dir: dir, socket: filepath.Join(dir, "d.sock")}
	e.env = append(os.Environ(),
		"AISBX_SOCKET="+e.socket,
		"AISBX_CACHE_DIR="+filepath.Join(dir, "cache"),
		"AISBX_CONFIG="+filepath.Join(dir, "user-config.toml"),
		"AISBX_FAULT_INJECTION=1",
		"AISBX_LOG_LEVEL=debug",
	)
	t.Cleanup(func() {
		e.stopDaemon()
		if t.Failed() {
			for _, name := range []string{"daemon.log", "serve.log"} {
				if b, err := os.ReadFile(filepath.Join(dir, "cache", name)); err == nil {
					t.Logf("%s:\n%s", name, tail(b, 4000))
				}
			}
		}
		os.RemoveAll(dir)
	})
	return e
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// stopDaemon kills the test's daemon, if any, by the pid in its lock file.
func (e *testEnv) stopDaemon() {
	if pid := e.daemonPID(); pid > 0 {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

func (e *testEnv) daemonPID() int {
	b, err := os.ReadFile(e.socket + ".lock")
	if err != nil {
		return 0
	}
	var pid int
	fmt.Sscan(string(b), &pid)
	if pid > 0 && syscall.Kill(pid, 0) != nil {
		return 0
	}
	return pid
}

// server is an `aisbxd serve` child process with an LSP client on its stdio.
type server struct {
	cmd    *exec.Cmd
	client *lsptest.Client
	done   chan int
	stderr *bytes.Buffer
}

type procConn struct {
	io.ReadCloser
	io.WriteCloser
}

func (p procConn) Close() error { p.WriteCloser.Close(); return p.ReadCloser.Close() }

func (e *testEnv) serve(t *testing.T, args ...string) *server {
	t.Helper()
	cmd := exec.Command(aisbxd, append([]string{"serve", "--stdio"}, args...)...)
	cmd.Env = e.env
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	s := &server{cmd: cmd, done: make(chan int, 1), stderr: &bytes.Buffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.client = lsptest.New(procConn{stdout, stdin})
	go func() {
		cmd.Wait()
		s.done <- cmd.ProcessState.ExitCode()
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		if t.Failed() && s.stderr.Len() > 0 {
			t.Logf("serve stderr:\n%s", s.stderr.String())
		}
	})
	return s
}

func (s *server) exitCode(t *testing.T) int {
	t.Helper()
	select {
	case code := <-s.done:
		return code
	case <-time.After(15 * time.Second):
		t.Fatal("aisbxd serve did not exit")
		return -1
	}
}

func conformanceOver(t *testing.T, args ...string) {
	e := newTestEnv(t)
	servers := map[*lsptest.Client]*server{}
	lsptest.Conformance(t, lsptest.Target{
		Start: func(t *testing.T) *lsptest.Client {
			s := e.serve(t, args...)
			servers[s.client] = s
			return s.client
		},
		ExitCode: func(t *testing.T, c *lsptest.Client) int { return servers[c].exitCode(t) },
	})
}

// TestConformanceStdio drives the built binary over its stdio, serving
// in-process.
func TestConformanceStdio(t *testing.T) { conformanceOver(t, "--standalone") }

// TestConformanceDaemon drives the built binary as editors do: serve forwards
// to the shared daemon over its socket, starting it on first use.
func TestConformanceDaemon(t *testing.T) { conformanceOver(t) }

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func ctxB(b *testing.B) context.Context { return ctxT(b) }

type statusJSON struct {
	Running bool `json:"running"`
	PID     int  `json:"pid"`
	Clients []struct {
		Name  string   `json:"name"`
		Roots []string `json:"roots"`
	} `json:"clients"`
	Workspaces []struct {
		Root  string `json:"root"`
		Users int    `json:"users"`
	} `json:"workspaces"`
}

func (e *testEnv) status(t *testing.T) (statusJSON, int) {
	t.Helper()
	cmd := exec.Command(aisbxd, "status", "--json")
	cmd.Env = e.env
	out, _ := cmd.Output()
	var st statusJSON
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatalf("status --json: %v\n%s", err, out)
	}
	return st, cmd.ProcessState.ExitCode()
}

// TestTwoEditorsShareOneDaemon: two `serve` processes reach one daemon and
// status lists both; when the daemon dies, both tell their editor and exit
// non-zero; the next serve starts a new daemon.
func TestTwoEditorsShareOneDaemon(t *testing.T) {
	e := newTestEnv(t)
	root := t.TempDir()
	ctx := ctxT(t)
	a, b := e.serve(t), e.serve(t)
	for _, s := range []*server{a, b} {
		if _, err := s.client.Initialize(ctx, root); err != nil {
			t.Fatalf("initialize: %v", err)
		}
	}
	st, code := e.status(t)
	if code != 0 || !st.Running || len(st.Clients) != 2 || len(st.Workspaces) != 1 || st.Workspaces[0].Users != 2 {
		t.Fatalf("status (exit %d) = %+v; want one daemon with 2 clients sharing 1 workspace", code, st)
	}
	first := st.PID
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*server{a, b} {
		msg, err := s.client.WaitNotification(ctx, "window/showMessage", nil)
		if err != nil || !strings.Contains(string(msg), "daemon stopped unexpectedly") {
			t.Errorf("editor not told the daemon died: %s, %v", msg, err)
		}
		if code := s.exitCode(t); code == 0 {
			t.Errorf("serve exited 0 after the daemon died; want non-zero so the editor restarts it")
		}
	}
	c := e.serve(t)
	if _, err := c.client.Initialize(ctx, root); err != nil {
		t.Fatalf("initialize after restart: %v", err)
	}
	st, _ = e.status(t)
	if !st.Running || st.PID == first || len(st.Clients) != 1 {
		t.Fatalf("after restart: %+v (old pid %d)", st, first)
	}
}

// TestDaemonIdleTimeoutAndLock: a second daemon refuses to start while one
// runs, and a daemon with no clients exits after its idle timeout.
func TestDaemonIdleTimeoutAndLock(t *testing.T) {
	e := newTestEnv(t)
	d := exec.Command(aisbxd, "daemon", "--idle-timeout", "1s")
	d.Env = e.env
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for e.daemonPID() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	second := exec.Command(aisbxd, "daemon")
	second.Env = e.env
	out, err := second.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "already running") {
		t.Fatalf("second daemon: %v, %s", err, out)
	}
	// A client comes and goes; the timer restarts after it leaves.
	s := e.serve(t)
	if _, err := s.client.Initialize(ctxT(t), t.TempDir()); err != nil {
		t.Fatal(err)
	}
	s.client.Shutdown(ctxT(t))
	if code := s.exitCode(t); code != 0 {
		t.Errorf("serve exit code after shutdown = %d", code)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("daemon exited with %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("daemon did not exit after its idle timeout")
	}
	if _, err := os.Stat(e.socket); !os.IsNotExist(err) {
		t.Errorf("socket left behind: %v", err)
	}
}

// TestSocketIsPrivate: the socket is the user's alone.
func TestSocketIsPrivate(t *testing.T) {
	e := newTestEnv(t)
	s := e.serve(t)
	if _, err := s.client.Initialize(ctxT(t), t.TempDir()); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(e.socket)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode = %v, want 0600", fi.Mode().Perm())
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		t.Errorf("socket not owned by the user")
	}
}

// TestRestartRightAfterStop: a serve started while the old daemon is still
// shutting down (the editor's "Restart daemon") gets a new daemon, not a
// standalone fallback.
func TestRestartRightAfterStop(t *testing.T) {
	e := newTestEnv(t)
	root := t.TempDir()
	s := e.serve(t)
	if _, err := s.client.Initialize(ctxT(t), root); err != nil {
		t.Fatal(err)
	}
	old := e.daemonPID()
	stop := exec.Command(aisbxd, "daemon", "--stop")
	stop.Env = e.env
	if out, err := stop.CombinedOutput(); err != nil {
		t.Fatalf("daemon --stop: %v %s", err, out)
	}
	// At once, before the old daemon is gone.
	s2 := e.serve(t)
	if _, err := s2.client.Initialize(ctxT(t), root); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if st, code := e.status(t); code == 0 && st.Running && st.PID != old && len(st.Clients) == 1 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	st, _ := e.status(t)
	t.Fatalf("no new daemon serving the restarted editor: %+v (old pid %d)", st, old)
}
