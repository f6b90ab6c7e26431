package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/sandbox"
)

// SandboxOptions turns the [sandbox] config section into sandbox options for
// root. The CLI uses it too, for cold runs without a daemon.
func SandboxOptions(root string, cfg *config.Config) sandbox.Options {
	sc := cfg.Sandbox
	o := sandbox.Options{
		Workspace:   root,
		PoolSize:    sc.PoolSize,
		Memory:      int64(sc.Memory),
		CPUs:        sc.CPUs,
		PidsLimit:   sc.PidsLimit,
		TmpfsSize:   int64(sc.TmpfsSize),
		Timeout:     sc.Timeout.D(),
		OutputLimit: int64(sc.OutputLimit),
		OutputKeep:  int(sc.OutputKeep),
		Runtime:     sc.Runtime,
		Seccomp:     sc.Seccomp,
		Exclude:     sc.Exclude,
		Profiles:    map[string]sandbox.Profile{},
	}
	if o.PoolSize == 0 {
		o.PoolSize = -1 // config 0 means "no pool"; sandbox's zero means "default"
	}
	for name, p := range sc.Profiles {
		sp := sandbox.Profile{Base: p.Base, Image: p.Image, TestCmd: p.Test, Markers: p.Markers}
		for _, m := range p.Mounts {
			src, dst, _ := strings.Cut(m, ":")
			sp.Mounts = append(sp.Mounts, sandbox.Mount{Source: src, Target: dst})
		}
		if len(p.Env) > 0 {
			sp.Env = map[string]string{}
			for _, e := range p.Env {
				k, v, _ := strings.Cut(e, "=")
				sp.Env[k] = v
			}
		}
		o.Profiles[name] = sp
	}
	return o
}

// sandboxKey identifies the options a sandbox was made with, so that a
// config change that touches them replaces the sandbox.
func sandboxKey(o sandbox.Options) string {
	o.Logger = nil
	b, _ := json.Marshal(o)
	return string(b)
}

// Sandbox returns the workspace's sandbox, creating it on first use. One
// sandbox per workspace: its containers carry the workspace as a label.
func (w *Workspace) Sandbox(ctx context.Context) (*sandbox.Sandbox, error) {
	if w.Root == "" {
		return nil, errors.New("files outside a workspace folder cannot run in the sandbox: open their folder")
	}
	w.sbMu.Lock()
	defer w.sbMu.Unlock()
	opts := SandboxOptions(w.Root, w.Config())
	key := sandboxKey(opts)
	if w.sb != nil && w.sbKey == key {
		return w.sb, nil
	}
	if w.sb != nil {
		old := w.sb
		go old.Close(context.WithoutCancel(w.ctx)) // the config changed: a new pool replaces the old
	}
	opts.DaemonID = w.opts.DaemonID
	opts.Logger = w.log
	sb, err := sandbox.New(w.ctx, opts)
	if err != nil {
		w.sb = nil
		return nil, fmt.Errorf("sandbox for %s: %w", w.Root, err)
	}
	w.sb, w.sbKey = sb, key
	return sb, nil
}

// warmSandbox fills the pool of every profile the workspace uses, in the
// background. A missing image or a down engine is logged, not fatal: the
// status shows the pool cold, and the first run says what to do.
func (w *Workspace) warmSandbox() {
	if w.Root == "" || !w.opts.WarmPools {
		return
	}
	go func() {
		sb, err := w.Sandbox(w.ctx)
		if err != nil {
			w.log.Warn("no sandbox", "err", err)
			return
		}
		if err := sb.Warm(w.ctx); err != nil {
			w.log.Info("sandbox pool stays cold", "err", err)
		}
	}()
}

// closeSandbox destroys the workspace's pool.
func (w *Workspace) closeSandbox() {
	w.sbMu.Lock()
	sb := w.sb
	w.sb = nil
	w.sbMu.Unlock()
	if sb != nil {
		if err := sb.Close(context.WithoutCancel(w.ctx)); err != nil {
			w.log.Warn("closing sandbox", "err", err)
		}
	}
}

// SandboxStatus reports the sandbox, when one exists.
func (w *Workspace) SandboxStatus(ctx context.Context) (sandbox.StatusReport, bool) {
	w.sbMu.Lock()
	sb := w.sb
	w.sbMu.Unlock()
	if sb == nil {
		return sandbox.StatusReport{}, false
	}
	return sb.Status(ctx), true
}
