// Package sbxtest helps tests that need the real Docker engine and the
// locally built sandbox base images (scripts/images). It skips without an
// engine, except under CI=true, where a missing engine fails the test.
// Start with Sandbox.
package sbxtest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/aisbx/aisbx/sandbox"
)

// Bases are the air-gapped base images of the built-in profiles.
var Bases = map[string]string{
	"go":     "aisbx-base/go:latest",
	"python": "aisbx-base/python:latest",
	"node":   "aisbx-base/node:latest",
}

var (
	engineOnce sync.Once
	engineErr  error
	baseMu     sync.Mutex
	baseDone   = map[string]error{}
)

// NeedEngine skips (or, with CI=true, fails) when no Docker engine answers.
func NeedEngine(t testing.TB) {
	t.Helper()
	engineOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		sb, err := sandbox.New(ctx, sandbox.Options{PoolSize: -1})
		if err != nil {
			engineErr = err
			return
		}
		defer sb.Close(ctx)
		engineErr = sb.Ping(ctx)
	})
	if engineErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and no Docker engine: %v", engineErr)
		}
		t.Skipf("no Docker engine: %v", engineErr)
	}
}

// NeedBase makes sure a profile's base image exists, building it with its
// script from scripts/images when missing, and returns its reference.
func NeedBase(t testing.TB, profile string) string {
	t.Helper()
	NeedEngine(t)
	baseMu.Lock()
	defer baseMu.Unlock()
	err, done := baseDone[profile]
	if !done {
		if exec.Command("docker", "image", "inspect", Bases[profile]).Run() != nil {
			_, file, _, _ := runtime.Caller(0)
			script := filepath.Join(filepath.Dir(file), "..", "..", "scripts", "images", profile+"-base.sh")
			out, berr := exec.Command("bash", script).CombinedOutput()
			if berr != nil {
				t.Logf("%s:\n%s", script, out)
				err = berr
			}
		}
		baseDone[profile] = err
	}
	if err != nil {
		t.Fatalf("building the %s base image: %v", profile, err)
	}
	return Bases[profile]
}

// Sandbox returns a sandbox for root whose listed profiles build from the
// local base images, and builds their images (reused while the workspace's
// lockfiles do not change). It is closed when the test ends.
func Sandbox(t testing.TB, root string, opts sandbox.Options, profiles ...string) *sandbox.Sandbox {
	t.Helper()
	NeedEngine(t)
	opts.Workspace = root
	if opts.Profiles == nil {
		opts.Profiles = map[string]sandbox.Profile{}
	}
	for _, p := range profiles {
		prof := opts.Profiles[p]
		prof.Base = NeedBase(t, p)
		opts.Profiles[p] = prof
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	sb, err := sandbox.New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close(context.Background()) })
	for _, p := range profiles {
		if _, err := sb.Build(ctx, sandbox.BuildOptions{Workspace: root, Profiles: []string{p}}); err != nil {
			t.Fatalf("building the %s image for %s: %v", p, root, err)
		}
	}
	return sb
}
