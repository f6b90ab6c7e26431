package workspace

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/sandbox"
)

// Workspace is the shared state of one root.
type Workspace struct {
	Root string

	ctx    context.Context
	cancel context.CancelFunc
	log    *slog.Logger
	opts   Options

	users  map[string]int // guarded by the Registry's lock
	linger *time.Timer    // guarded by the Registry's lock

	mu     sync.RWMutex
	cfg    *config.Config // the last good config
	loaded *config.Loaded // the last load, good or not
	engine *checks.Engine
	fast   *checks.Engine // the engine without linters, for agent hooks
	lint   *checks.Engine // the linters alone; nil when they are disabled
	engErr error
	events *broadcaster

	sbMu  sync.Mutex
	sb    *sandbox.Sandbox
	sbKey string

	tests   testsState
	overlay overlays
	act     activity
	all     *broadcaster
}

func newWorkspace(parent context.Context, root string, opts Options, all *broadcaster) *Workspace {
	ctx, cancel := context.WithCancel(parent)
	w := &Workspace{
		Root: root, ctx: ctx, cancel: cancel, opts: opts,
		log:    opts.Logger.With("workspace", root),
		users:  map[string]int{},
		cfg:    config.Defaults(),
		events: newBroadcaster(),
		all:    all,
	}
	w.applyConfig(config.Load(root))
	w.warmSandbox()
	w.startWatching()
	return w
}

// publish sends an event to the workspace's subscribers and the registry's.
func (w *Workspace) publish(e Event) {
	e.Root = w.Root
	w.events.publish(e)
	if w.all != nil {
		w.all.publish(e)
	}
}

// Context is cancelled when the workspace closes; scope background work to it.
func (w *Workspace) Context() context.Context { return w.ctx }

func (w *Workspace) close() {
	w.stopWatching()
	w.closeSandbox()
	w.cancel()
	w.events.close()
}

// ConfigPath is the workspace's aisbx.toml ("" for the rootless workspace).
func (w *Workspace) ConfigPath() string {
	if w.Root == "" {
		return ""
	}
	return filepath.Join(w.Root, config.FileName)
}

// Config returns the config in force: the last one that loaded without
// errors.
func (w *Workspace) Config() *config.Config {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.cfg
}

// Loaded returns the result of the last config load, with its problems and
// the origin of each value.
func (w *Workspace) Loaded() *config.Loaded {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.loaded
}

// ReloadConfig reads the config files again (after a save of aisbx.toml or
// the user file). A broken file keeps the last good config in force; its
// problems are in Loaded and in the EventConfig event.
func (w *Workspace) ReloadConfig() {
	w.applyConfig(config.Load(w.Root))
}

// ValidateConfig checks an unsaved aisbx.toml buffer without applying it.
func (w *Workspace) ValidateConfig(data []byte) *config.Loaded {
	layers := config.Load("").Layers // the user file, when there is one
	return config.LoadLayers(append(layers, config.Layer{Path: w.ConfigPath(), Data: data})...)
}

func (w *Workspace) applyConfig(l *config.Loaded) {
	w.mu.Lock()
	w.loaded = l
	applied := false
	if l.Config != nil {
		w.cfg = l.Config
		applied = true
		w.rebuildEngineLocked()
	} else if w.engine == nil {
		w.rebuildEngineLocked()
	}
	w.mu.Unlock()
	for _, p := range l.Problems {
		w.log.Warn("config problem", "problem", p.String())
	}
	w.publish(Event{Kind: EventConfig, ConfigApplied: applied, Problems: l.Problems})
}

func (w *Workspace) rebuildEngineLocked() {
	if w.opts.NewEngine == nil {
		w.engine = checks.NewEngine(checks.Options{})
		w.fast = w.engine
		return
	}
	e, err := w.opts.NewEngine(w.Root, w.cfg)
	if err != nil {
		w.log.Error("building checks engine", "err", err)
		w.engErr = err
		if w.engine == nil {
			w.engine = checks.NewEngine(checks.Options{})
			w.fast = w.engine
		}
		return
	}
	fastCfg := *w.cfg
	fastCfg.Checks.Enabled = nil
	for _, name := range w.cfg.Checks.Enabled {
		if name != "linters" {
			fastCfg.Checks.Enabled = append(fastCfg.Checks.Enabled, name)
		}
	}
	fast, err := w.opts.NewEngine(w.Root, &fastCfg)
	if err != nil {
		fast = e
	}
	var lint *checks.Engine
	if len(fastCfg.Checks.Enabled) < len(w.cfg.Checks.Enabled) {
		lintCfg := *w.cfg
		lintCfg.Checks.Enabled = []string{"linters"}
		if lint, err = w.opts.NewEngine(w.Root, &lintCfg); err != nil {
			lint = nil
		}
	}
	w.engine, w.fast, w.lint, w.engErr = e, fast, lint, nil
}

// LinterEngine runs the user's linters alone, or is nil when they are
// disabled. Editors publish FastEngine's findings at once and merge these
// in when the linters finish, which can take seconds on a cold cache.
func (w *Workspace) LinterEngine() *checks.Engine {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.lint
}

// CheckPhased runs the fast checks, hands their result to publish, then
// runs the linters (when enabled) and hands over the merged result. It
// returns the final result.
func (w *Workspace) CheckPhased(ctx context.Context, f *checks.File, publish func(checks.Result)) checks.Result {
	res := w.FastEngine().Run(ctx, f)
	publish(res)
	lint := w.LinterEngine()
	if lint == nil || ctx.Err() != nil {
		return res
	}
	lr := lint.Run(ctx, f)
	if len(lr.Findings) == 0 && len(lr.Errors) == 0 {
		return res
	}
	merged := checks.Result{Findings: checks.MergeFindings(res.Findings, lr.Findings), Errors: append(res.Errors, lr.Errors...)}
	publish(merged)
	return merged
}

// FastEngine is the engine without the user's linters: in-process checks
// that answer in milliseconds, for agent hooks that must not hold the agent
// up.
func (w *Workspace) FastEngine() *checks.Engine {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.fast
}

// Engine returns the checks engine for the config in force.
func (w *Workspace) Engine() *checks.Engine {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.engine
}

// Check runs the workspace's checks on one file's content.
func (w *Workspace) Check(ctx context.Context, path string, content []byte) checks.Result {
	return w.Engine().Run(ctx, checks.NewFile(w.Root, path, content))
}

// Subscribe calls fn for every event of this workspace until the returned
// func is called or the workspace closes. fn must not block for long.
func (w *Workspace) Subscribe(fn func(Event)) (unsubscribe func()) {
	return w.events.subscribe(fn)
}

// Users returns how many users hold the workspace.
func (w *Workspace) Users() int {
	n := 0
	for _, c := range w.users {
		n += c
	}
	return n
}
