package workspace

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/config"
)

// EngineFactory builds the checks engine for a workspace from its config.
type EngineFactory func(root string, cfg *config.Config) (*checks.Engine, error)

// Options configures a Registry.
type Options struct {
	Logger *slog.Logger
	// NewEngine builds checks engines; nil means an engine with no checks.
	NewEngine EngineFactory
	// DaemonID labels the sandbox containers of this process, so that the
	// next daemon can reap them if this one crashes.
	DaemonID string
	// WarmPools fills each workspace's sandbox pool when it opens (the
	// daemon does; one-shot CLI commands do not).
	WarmPools bool
	// Linger keeps a workspace open this long after its last user leaves,
	// so that CLI calls and agent hooks in a row find its pool warm.
	Linger time.Duration
	// Watch watches each workspace for files written by other processes
	// (agents), when its config enables it.
	Watch bool
}

// Registry holds the workspaces of this process by root.
type Registry struct {
	opts   Options
	log    *slog.Logger
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	byRoot  map[string]*Workspace
	clients map[string]*ClientInfo
	events  *broadcaster // every workspace's events, for live feeds
}

// NewRegistry returns an empty Registry whose workspaces live under ctx.
func NewRegistry(ctx context.Context, opts Options) *Registry {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(ctx)
	return &Registry{opts: opts, log: opts.Logger, ctx: ctx, cancel: cancel,
		byRoot: map[string]*Workspace{}, clients: map[string]*ClientInfo{}, events: newBroadcaster()}
}

// Acquire returns the workspace for root, creating it on first use, and
// counts user as one of its users until Release. root "" is the workspace of
// files outside any folder: defaults and the user config only.
func (r *Registry) Acquire(ctx context.Context, root, user string) (*Workspace, error) {
	if root != "" {
		abs, err := filepath.Abs(root)
		if err != nil {
			return nil, fmt.Errorf("workspace root %q: %w", root, err)
		}
		root = filepath.Clean(abs)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	w, ok := r.byRoot[root]
	if !ok {
		w = newWorkspace(r.ctx, root, r.opts, r.events)
		r.byRoot[root] = w
		r.log.Info("workspace opened", "root", root)
	}
	if w.linger != nil {
		w.linger.Stop()
		w.linger = nil
	}
	w.users[user]++
	return w, nil
}

// Release drops one use of w by user. The workspace closes when nobody uses
// it any more.
func (r *Registry) Release(w *Workspace, user string) {
	r.mu.Lock()
	w.users[user]--
	if w.users[user] <= 0 {
		delete(w.users, user)
	}
	idle := len(w.users) == 0
	if idle && r.opts.Linger > 0 {
		if w.linger == nil {
			w.linger = time.AfterFunc(r.opts.Linger, func() { r.closeIfIdle(w) })
		}
		idle = false
	}
	if idle {
		delete(r.byRoot, w.Root)
	}
	r.mu.Unlock()
	if idle {
		r.log.Info("workspace closed", "root", w.Root)
		w.close()
	}
}

// closeIfIdle closes a lingering workspace that nobody took back.
func (r *Registry) closeIfIdle(w *Workspace) {
	r.mu.Lock()
	if len(w.users) > 0 || r.byRoot[w.Root] != w {
		r.mu.Unlock()
		return
	}
	delete(r.byRoot, w.Root)
	w.linger = nil
	r.mu.Unlock()
	r.log.Info("workspace closed after lingering", "root", w.Root)
	w.close()
}

// Workspaces returns the open workspaces, sorted by root.
func (r *Registry) Workspaces() []*Workspace {
	r.mu.Lock()
	out := make([]*Workspace, 0, len(r.byRoot))
	for _, w := range r.byRoot {
		out = append(out, w)
	}
	r.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Root < out[j].Root })
	return out
}

// ForPath returns the open workspace with the deepest root containing path,
// or nil.
func (r *Registry) ForPath(path string) *Workspace {
	r.mu.Lock()
	defer r.mu.Unlock()
	var best *Workspace
	for root, w := range r.byRoot {
		if root == "" {
			continue
		}
		if path == root || strings.HasPrefix(path, root+string(filepath.Separator)) {
			if best == nil || len(root) > len(best.Root) {
				best = w
			}
		}
	}
	return best
}

// Close closes every workspace.
func (r *Registry) Close() {
	r.mu.Lock()
	ws := make([]*Workspace, 0, len(r.byRoot))
	for _, w := range r.byRoot {
		ws = append(ws, w)
	}
	r.byRoot = map[string]*Workspace{}
	r.mu.Unlock()
	for _, w := range ws {
		w.close()
	}
	r.cancel()
}

// Subscribe calls fn for the events of every workspace, in order, until the
// returned func is called: `aisbxd watch` is built on it.
func (r *Registry) Subscribe(fn func(Event)) (unsubscribe func()) {
	return r.events.subscribe(fn)
}

// ClientInfo describes one connected client (an editor window, a CLI call).
type ClientInfo struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Version   string    `json:"version,omitempty"`
	PID       int       `json:"pid,omitempty"`
	Connected time.Time `json:"connected"`
	Roots     []string  `json:"roots"`
}

// AddClient records a connected client; the returned func removes it.
func (r *Registry) AddClient(c *ClientInfo) (remove func()) {
	r.mu.Lock()
	r.clients[c.ID] = c
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		delete(r.clients, c.ID)
		r.mu.Unlock()
	}
}

// UpdateClient changes a client's record under the registry's lock.
func (r *Registry) UpdateClient(id string, f func(*ClientInfo)) {
	r.mu.Lock()
	if c, ok := r.clients[id]; ok {
		f(c)
	}
	r.mu.Unlock()
}

// Clients returns copies of the connected clients, oldest first.
func (r *Registry) Clients() []ClientInfo {
	r.mu.Lock()
	out := make([]ClientInfo, 0, len(r.clients))
	for _, c := range r.clients {
		cp := *c
		cp.Roots = append([]string(nil), c.Roots...)
		out = append(out, cp)
	}
	r.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Connected.Before(out[j].Connected) })
	return out
}
