package sandbox

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"

	"github.com/moby/moby/client"
)

// Base images the tests run on; scripts/images builds them when missing.
var testBases = map[string]string{
	"go":     "aisbx-base/go:latest",
	"python": "aisbx-base/python:latest",
	"node":   "aisbx-base/node:latest",
}

var engineOnce sync.Once
var engineErr error

// needEngine skips (or, with CI=true, fails) when no Docker engine answers.
func needEngine(t testing.TB) {
	t.Helper()
	engineOnce.Do(func() {
		eng, err := connect("")
		if err != nil {
			engineErr = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, engineErr = eng.info(ctx)
	})
	if engineErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and no Docker engine: %v", engineErr)
		}
		t.Skipf("no Docker engine: %v", engineErr)
	}
}

var baseOnce = map[string]*sync.Once{"go": {}, "python": {}, "node": {}}
var baseErr = map[string]error{}

// needBase makes sure the air-gapped base image of a profile exists,
// running its script from scripts/images if not.
func needBase(t testing.TB, profile string) string {
	t.Helper()
	needEngine(t)
	baseOnce[profile].Do(func() {
		if exec.Command("docker", "image", "inspect", testBases[profile]).Run() == nil {
			return
		}
		_, file, _, _ := runtime.Caller(0)
		script := filepath.Join(filepath.Dir(file), "..", "scripts", "images", profile+"-base.sh")
		out, err := exec.Command("bash", script).CombinedOutput()
		if err != nil {
			baseErr[profile] = err
			t.Logf("%s:\n%s", script, out)
		}
	})
	if err := baseErr[profile]; err != nil {
		t.Fatalf("building the %s base image: %v", profile, err)
	}
	return testBases[profile]
}

// newTestSandbox returns a Sandbox whose profiles run straight on the base
// images, with small limits so the hostile tests end fast.
// newSandboxOn is a Sandbox with the test base image as its "go" profile
// on eng, an engine a test connected its own way; it is closed with t.
func newSandboxOn(t testing.TB, eng *engine, opts Options) *Sandbox {
	t.Helper()
	opts.Profiles = map[string]Profile{"go": {Image: needBase(t, "go"), Mounts: []Mount{}}}
	opts, err := opts.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	profiles, err := resolveProfiles(opts.Profiles)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := newWithEngine(t.Context(), opts, profiles, eng)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close(context.Background()) })
	return sb
}

func newTestSandbox(t testing.TB, opts Options) *Sandbox {
	t.Helper()
	needEngine(t)
	if opts.Profiles == nil {
		opts.Profiles = map[string]Profile{}
	}
	for name := range testBases {
		if _, ok := opts.Profiles[name]; !ok {
			opts.Profiles[name] = Profile{Image: needBase(t, name), Mounts: []Mount{}}
		}
	}
	if opts.Memory == 0 {
		opts.Memory = 256 << 20
	}
	if opts.PidsLimit == 0 {
		opts.PidsLimit = 64
	}
	if opts.TmpfsSize == 0 {
		opts.TmpfsSize = 64 << 20
	}
	if opts.Timeout == 0 {
		opts.Timeout = 2 * time.Minute
	}
	sb, err := New(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sb.Close(context.Background()); err != nil {
			t.Errorf("close: %v", err)
		}
		assertNoContainers(t, sb)
	})
	return sb
}

// containersOf lists the containers a sandbox instance labelled.
func containersOf(t testing.TB, sb *Sandbox) []string {
	t.Helper()
	f := client.Filters{}
	f.Add("label", labelDaemon+"="+sb.inst.id)
	res, err := sb.eng.cli.ContainerList(context.Background(), client.ContainerListOptions{All: true, Filters: f})
	if err != nil {
		t.Fatalf("listing containers: %v", err)
	}
	var ids []string
	for _, c := range res.Items {
		ids = append(ids, c.ID[:12]+" "+string(c.State))
	}
	return ids
}

// assertNoContainers checks that nothing of sb is left once closed.
// Removal with AutoRemove is asynchronous in the engine: poll briefly.
func assertNoContainers(t testing.TB, sb *Sandbox) {
	t.Helper()
	var left []string
	for range 50 {
		if left = containersOf(t, sb); len(left) == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("containers left behind: %s", strings.Join(left, ", "))
}

// waitGone waits for a used container to be removed: Run hands its
// removal to the background (destroyLater), which takes the engine a moment.
func waitGone(t testing.TB, sb *Sandbox, id string) error {
	t.Helper()
	var err error
	for range 100 {
		if _, err = sb.eng.cli.ContainerInspect(context.Background(), id, client.ContainerInspectOptions{}); cerrdefs.IsNotFound(err) {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err == nil {
		err = errors.New("still there after 5 s")
	}
	return err
}

// writeTree writes files under a new temp dir.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func sleepShort() { time.Sleep(20 * time.Millisecond) }
