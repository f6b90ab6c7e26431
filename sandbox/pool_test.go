package sandbox

import (
	"context"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/client"
)

// TestPoolWarmRun: a warmed pool hands out a pre-started container and
// refills itself, never beyond its size.
func TestPoolWarmRun(t *testing.T) {
	sb := newTestSandbox(t, Options{PoolSize: 2})
	ws := writeTree(t, map[string]string{"a.txt": "hello"})
	if err := sb.Warm(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, sb, "go", 2)
	for i := range 3 {
		res, err := sb.Run(t.Context(), Job{Workspace: ws, Profile: "go", Cmd: []string{"cat", "a.txt"}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusPassed || string(res.Output) != "hello" || !res.Warm {
			t.Errorf("run %d: %s warm=%v %q", i, res.Status, res.Warm, res.Output)
		}
		waitIdle(t, sb, "go", 2)
		if st, _ := sb.Pool("go"); st.Idle+st.Starting > 2 {
			t.Errorf("pool above its size: %+v", st)
		}
	}
	st := sb.Status(t.Context())
	if !st.Engine.Reachable || len(st.Pools) != 1 || st.Pools[0].Size != 2 || st.Runs != 3 {
		t.Errorf("status %+v", st)
	}
}

// TestReap: containers of a daemon that is gone are removed by the next
// one; a live daemon's are left alone.
func TestReap(t *testing.T) {
	live := newTestSandbox(t, Options{PoolSize: 1})
	dead := newTestSandbox(t, Options{PoolSize: 1})
	// Pretend dead's process has exited: label its containers with the pid
	// of a process that has.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	p := dead.profiles["go"]
	img, err := dead.ImageFor(t.Context(), "go", "")
	if err != nil {
		t.Fatal(err)
	}
	sp := dead.specFor(p, img)
	sp.labels[labelPID] = strconv.Itoa(gone.Process.Pid)
	sp.labels[labelBoot] = "1"
	// Created, not started: a started one would need an exec, and the
	// reaper of any sandbox starting meanwhile (other test packages run in
	// parallel) may rightly remove it first. Gone either way is a pass.
	cfg, host, err := dead.containerConfig(sp, "pool", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	orphan, err := dead.eng.cli.ContainerCreate(t.Context(), client.ContainerCreateOptions{Config: cfg, HostConfig: host})
	if err != nil {
		t.Fatal(err)
	}
	defer dead.destroy(context.Background(), orphan.ID)
	kept, err := live.startBox(t.Context(), live.specFor(p, img), "pool")
	if err != nil {
		t.Fatal(err)
	}
	defer live.destroy(context.Background(), kept.id)

	fresh := newTestSandbox(t, Options{PoolSize: -1})
	if _, err := fresh.Reap(t.Context()); err != nil {
		t.Fatal(err)
	}
	left := strings.Join(containersOf(t, dead), " ")
	if strings.Contains(left, shortID(orphan.ID)) {
		t.Errorf("the dead daemon's container %s survived the reap", shortID(orphan.ID))
	}
	if !strings.Contains(strings.Join(containersOf(t, live), " "), shortID(kept.id)) {
		t.Errorf("the reap removed a live daemon's container")
	}
}

// TestEngineDownError: no engine at the address gives an error that
// matches ErrEngineUnreachable and says how to start one; New itself does
// not fail, so a daemon can go on without the engine.
func TestEngineDownError(t *testing.T) {
	host := "unix://" + t.TempDir() + "/no-engine.sock"
	sb, err := New(t.Context(), Options{Host: host})
	if err != nil {
		t.Fatalf("New with the engine down: %v", err)
	}
	defer sb.Close(context.Background())
	err = sb.Ping(t.Context())
	if !errors.Is(err, ErrEngineUnreachable) {
		t.Fatalf("ping: %v, want ErrEngineUnreachable", err)
	}
	for _, want := range []string{host, "is dockerd running?", "systemctl start docker"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	_, err = sb.Run(t.Context(), Job{Workspace: t.TempDir(), Profile: "go", Cmd: []string{"true"}})
	if !errors.Is(err, ErrEngineUnreachable) {
		t.Errorf("run: %v, want ErrEngineUnreachable", err)
	}
	if st := sb.Status(t.Context()); st.Engine.Reachable || st.Engine.Error == "" {
		t.Errorf("status with the engine down: %+v", st.Engine)
	}
}

// TestBadInput: jobs and options that cannot work fail with clear errors.
func TestBadInput(t *testing.T) {
	cases := []struct {
		name string
		opts Options
		job  Job
		want error
	}{
		{"unknown profile", Options{}, Job{Profile: "cobol", Cmd: []string{"x"}}, ErrUnknownProfile},
		{"file outside the sandbox", Options{}, Job{Profile: "go", Cmd: []string{"x"}, Files: map[string][]byte{"/etc/passwd": nil}}, ErrInvalidJob},
		{"file escaping the work dir", Options{}, Job{Profile: "go", Cmd: []string{"x"}, Files: map[string][]byte{"../x": nil}}, ErrInvalidJob},
		{"bad env name", Options{}, Job{Profile: "go", Cmd: []string{"x"}, Env: map[string]string{"A=B": "c"}}, ErrInvalidJob},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Host = "unix://" + t.TempDir() + "/none.sock"
			sb, err := New(t.Context(), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer sb.Close(context.Background())
			tc.job.Workspace = t.TempDir()
			if _, err := sb.Run(t.Context(), tc.job); !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
	for _, o := range []Options{{Memory: 1}, {Seccomp: "unconfined"}, {Seccomp: "/nonexistent.json"}, {Profiles: map[string]Profile{"x": {}}}} {
		if _, err := New(t.Context(), o); err == nil {
			t.Errorf("New(%+v) accepted bad options", o)
		}
	}
}
