package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/internal/testfs"
)

// TestHostile runs each script of testdata/hostile on one warm pool: each
// must end with its status, leave no container, and the next run on the
// same pool must pass.
func TestHostile(t *testing.T) {
	cases := []struct {
		script  string
		timeout time.Duration
		want    Status
		limit   string // prefix of Result.Limit
	}{
		{"forkbomb.sh", 2 * time.Minute, StatusPidsLimit, "pids="},
		{"membomb.sh", 2 * time.Minute, StatusOOM, "memory="},
		{"loop.sh", 3 * time.Second, StatusTimeout, "timeout="},
		{"flood.sh", 2 * time.Minute, StatusOutputLimit, "output="},
		{"diskfill.sh", 2 * time.Minute, StatusDiskFull, "tmpfs="},
		{"background.sh", 2 * time.Minute, StatusPassed, ""},
	}
	sb := newTestSandbox(t, Options{PoolSize: 2, OutputLimit: 16 << 20, OutputKeep: 64 << 10})
	ws := testfs.TempCopy(t, "testdata/hostile")
	if err := sb.Warm(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.script, func(t *testing.T) {
			var before runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			res, err := sb.Run(t.Context(), Job{Workspace: ws, Profile: "go", Cmd: []string{"sh", tc.script}, Timeout: tc.timeout})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.want || !strings.HasPrefix(res.Limit, tc.limit) {
				t.Errorf("status %s (limit %q, exit %d, reason %q), want %s (limit %s...)\noutput: %.2000s",
					res.Status, res.Limit, res.ExitCode, res.Reason, tc.want, tc.limit, res.Output)
			}
			if tc.want != StatusPassed && res.Reason == "" {
				t.Errorf("status %s without a reason", res.Status)
			}
			if err := waitGone(t, sb, res.ContainerID); err != nil {
				t.Errorf("container %s still exists after the run (inspect: %v)", shortID(res.ContainerID), err)
			}
			if tc.want == StatusOutputLimit {
				checkFlood(t, res, before)
			}
			next, err := sb.Run(t.Context(), Job{Workspace: ws, Profile: "go", Cmd: []string{"sh", "-c", "test ! -e /tmp/leak && ! ps -o args | grep -q '[s]leep 1000'"}})
			if err != nil {
				t.Fatal(err)
			}
			if next.Status != StatusPassed {
				t.Errorf("the run after %s: %s %s\n%s", tc.script, next.Status, next.Reason, next.Output)
			}
		})
	}
}

// checkFlood: the run stopped at the output limit, kept head and tail
// within OutputKeep, and the daemon's heap did not grow with the flood.
func checkFlood(t *testing.T, res *Result, before runtime.MemStats) {
	t.Helper()
	if res.OutputBytes != 16<<20 {
		t.Errorf("output bytes %d, want the limit %d", res.OutputBytes, 16<<20)
	}
	if !res.OutputTruncated || res.DroppedBytes != res.OutputBytes-64<<10 {
		t.Errorf("truncated=%v dropped=%d, want %d dropped", res.OutputTruncated, res.DroppedBytes, res.OutputBytes-64<<10)
	}
	if len(res.Output) > 64<<10+200 {
		t.Errorf("kept %d bytes of output, want at most %d", len(res.Output), 64<<10)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grow := int64(after.HeapInuse) - int64(before.HeapInuse); grow > 8<<20 {
		t.Errorf("heap grew by %s during a flood, want it bounded", formatBytes(grow))
	}
}

// TestWorkspaceUntouched: a job that tries to change its workspace leaves
// the host copy byte for byte as it was.
func TestWorkspaceUntouched(t *testing.T) {
	sb := newTestSandbox(t, Options{PoolSize: 1})
	ws := writeTree(t, map[string]string{
		"main.go":            "package main\n\nfunc main() {}\n",
		"data/keep.txt":      "keep me\n",
		"workspace_write.sh": mustRead(t, "testdata/hostile/workspace_write.sh"),
	})
	before := treeDigest(t, ws)
	res, err := sb.Run(t.Context(), Job{Workspace: ws, Profile: "go", Cmd: []string{"sh", "workspace_write.sh"},
		Overlay: map[string][]byte{"data/keep.txt": []byte("unsaved buffer\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusPassed || !strings.Contains(string(res.Output), "created.txt") {
		t.Fatalf("the tampering job did not run as written: %s %s\n%s", res.Status, res.Reason, res.Output)
	}
	if after := treeDigest(t, ws); after != before {
		t.Errorf("the host workspace changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// treeDigest lists every entry under dir with its mode and content.
func treeDigest(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(filepath.Dir(dir), func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !strings.HasPrefix(p, dir) && p != filepath.Dir(dir) {
			return filepath.SkipDir
		}
		b.WriteString(p + " " + fi.Mode().String())
		if fi.Mode().IsRegular() {
			c, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.WriteString(" " + string(c))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestForkBombRemoteEngine: with a remote engine the host's cgroup files
// mean nothing, so refused forks are read from inside the container, even
// when the bomb's shell exits 0 after its children died.
func TestForkBombRemoteEngine(t *testing.T) {
	needEngine(t)
	eng, err := connect("")
	if err != nil {
		t.Fatal(err)
	}
	eng.local = false // as over ssh:// or tcp://
	sb := newSandboxOn(t, eng, Options{PoolSize: 1, PidsLimit: 64, Memory: 256 << 20})
	ws := testfs.TempCopy(t, "testdata/hostile")
	for _, tc := range []struct {
		cmd  []string
		want Status
	}{
		{[]string{"sh", "forkbomb.sh"}, StatusPidsLimit},
		{[]string{"sh", "-c", "echo fine"}, StatusPassed},
	} {
		res, err := sb.Run(t.Context(), Job{Workspace: ws, Profile: "go", Cmd: tc.cmd, Timeout: 2 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != tc.want {
			t.Errorf("%v: status %s (exit %d, reason %q), want %s", tc.cmd, res.Status, res.ExitCode, res.Reason, tc.want)
		}
		if tc.want == StatusPidsLimit && !strings.HasPrefix(res.Limit, "pids=") {
			t.Errorf("%v: limit %q, want pids=...", tc.cmd, res.Limit)
		}
	}
}
