package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/internal/lsptest"
)

// ussKiB reads a process's unique set size (private clean + dirty pages)
// from /proc: what the process costs on its own. RSS would count the shared
// pages of the aisbxd binary once per process.
func ussKiB(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	total := 0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "Private_Clean:") || strings.HasPrefix(line, "Private_Dirty:") {
			n, _ := strconv.Atoi(strings.Fields(line)[1])
			total += n
		}
	}
	return total
}

// BenchmarkIdleMemoryThreeClients reports the memory of the shared daemon
// with three editor clients connected and idle, next to what three
// standalone servers (one per window, the usual language-server model) use.
// Metrics, all unique set sizes: daemon-KiB (the one daemon),
// forwarders-KiB (the three thin serve processes together), standalone-KiB
// (three in-process servers together).
func BenchmarkIdleMemoryThreeClients(b *testing.B) {
	for b.Loop() {
		root := b.TempDir()
		os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n"), 0o644)

		shared := benchEnv(b)
		var fwd []*exec.Cmd
		for i := 0; i < 3; i++ {
			fwd = append(fwd, shared.benchServe(b, root))
		}
		time.Sleep(2 * time.Second) // let the heap settle
		daemonKiB := ussKiB(shared.daemonPID())
		fwdKiB := 0
		for _, c := range fwd {
			fwdKiB += ussKiB(c.Process.Pid)
		}

		alone := benchEnv(b)
		standaloneKiB := 0
		for i := 0; i < 3; i++ {
			c := alone.benchServe(b, root, "--standalone")
			time.Sleep(2 * time.Second)
			standaloneKiB += ussKiB(c.Process.Pid)
		}
		b.ReportMetric(float64(daemonKiB), "daemon-KiB")
		b.ReportMetric(float64(fwdKiB), "forwarders-KiB")
		b.ReportMetric(float64(standaloneKiB), "standalone-KiB")
	}
}

func benchEnv(b *testing.B) *testEnv {
	dir, _ := os.MkdirTemp("", "aisbx-bench-")
	e := &testEnv{dir: dir, socket: filepath.Join(dir, "d.sock")}
	e.env = append(os.Environ(), "AISBX_SOCKET="+e.socket, "AISBX_CACHE_DIR="+filepath.Join(dir, "cache"),
		"AISBX_CONFIG="+filepath.Join(dir, "none.toml"))
	b.Cleanup(func() { e.stopDaemon(); os.RemoveAll(dir) })
	return e
}

// benchServe starts a serve process, initializes it on root and leaves it
// connected.
func (e *testEnv) benchServe(b *testing.B, root string, args ...string) *exec.Cmd {
	cmd := exec.Command(aisbxd, append([]string{"serve", "--stdio"}, args...)...)
	cmd.Env = e.env
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	c := lsptest.New(procConn{stdout, stdin})
	if _, err := c.Initialize(ctxB(b), root); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}
