package watcher

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/aisbx/aisbx/internal/ignore"
)

// Watcher watches one workspace root. Create it with New, read batches from
// Events (or pass Options.OnBatch), and Close it when the workspace goes.
type Watcher struct {
	root   string
	opts   Options
	log    *slog.Logger
	m      *ignore.Matcher
	fsw    *fsnotify.Watcher // nil when no inotify instance could be had
	limits Limits

	cancel    context.CancelFunc
	out       chan []Event
	notices   chan Status
	loopDone  chan struct{}
	cbDone    chan struct{}
	closeOnce sync.Once
	closeErr  error

	mu     sync.Mutex
	status Status

	// Owned by the event loop goroutine (and by New before it starts).
	tree        *tree
	pending     map[string]*pend
	first, last time.Time // of the pending window
	timer       *time.Timer
	ready       []Event
	polledRoots map[string]struct{}
	watches     int
	polled      int
	overflows   int
	lastOverrun time.Time
	noInotify   string
	poll        *time.Ticker
	lastRearm   time.Time
}

// pend is the raw history of one path inside the current settle window.
type pend struct {
	ops    fsnotify.Op
	lastOp fsnotify.Op
	last   time.Time
	known  bool // the path was a known file when the window opened for it
}

// opScan marks a change a rescan found rather than inotify reported.
const opScan fsnotify.Op = 1 << 30

// New starts watching root and everything below it that is not ignored. It
// returns once every directory is watched (or polled), so changes made after
// New returns are reported. ctx bounds the watcher's life as Close does.
func New(ctx context.Context, root string, opts Options) (*Watcher, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("watcher: resolving %s: %w", root, err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("watcher: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("watcher: %s is not a directory", abs)
	}
	opts = opts.withDefaults()
	w := &Watcher{
		root:        abs,
		opts:        opts,
		log:         opts.Logger.With("component", "watcher", "root", abs),
		m:           opts.Matcher,
		out:         make(chan []Event),
		notices:     make(chan Status, 1),
		loopDone:    make(chan struct{}),
		cbDone:      make(chan struct{}),
		tree:        newTree(),
		pending:     map[string]*pend{},
		polledRoots: map[string]struct{}{},
		timer:       time.NewTimer(time.Hour),
	}
	w.timer.Stop()
	if w.m == nil {
		w.m = ignore.NewMatcher(abs, opts.Ignore...)
	}
	w.limits, _ = ReadLimits() // unknown limits only make messages less precise
	if w.fsw, err = fsnotify.NewWatcher(); err != nil {
		w.noInotify = fmt.Sprintf("no inotify instance could be created (%v): the whole workspace is polled every %s", err, opts.PollInterval)
		if w.limits.MaxUserInstances > 0 {
			w.noInotify += fmt.Sprintf("; raise fs.inotify.max_user_instances (now %d)", w.limits.MaxUserInstances)
		}
		w.log.Warn("falling back to polling", "err", err)
		w.fsw = nil
	}
	w.scan(abs, false)
	w.publish()

	ctx, w.cancel = context.WithCancel(ctx)
	go w.loop(ctx)
	if opts.OnBatch != nil {
		go w.deliver(opts.OnBatch)
	} else {
		close(w.cbDone)
	}
	return w, nil
}

// Root is the absolute directory being watched.
func (w *Watcher) Root() string { return w.root }

// Events delivers settled batches, oldest first. It is closed by Close. It
// carries nothing when Options.OnBatch is set.
func (w *Watcher) Events() <-chan []Event {
	if w.opts.OnBatch != nil {
		return nil
	}
	return w.out
}

// Notices receives the Status each time the watcher's coverage degrades (a
// queue overflow, a directory that has to be polled) or recovers (Degraded
// false: polled directories are watched again), so the daemon can tell the
// user. Only the latest notice is kept when nobody reads.
func (w *Watcher) Notices() <-chan Status { return w.notices }

// Status reports how well the watcher currently covers its root.
func (w *Watcher) Status() Status {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.status
}

// Close stops watching and waits for the watcher's goroutines to end.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() {
		w.cancel()
		<-w.loopDone
		if w.fsw != nil {
			w.closeErr = w.fsw.Close()
		}
		<-w.cbDone
	})
	return w.closeErr
}

func (w *Watcher) deliver(cb func([]Event)) {
	defer close(w.cbDone)
	for b := range w.out {
		func() {
			defer func() {
				if r := recover(); r != nil {
					w.log.Error("OnBatch panicked", "panic", r, "stack", string(debug.Stack()))
				}
			}()
			cb(b)
		}()
	}
}

func (w *Watcher) loop(ctx context.Context) {
	defer close(w.loopDone)
	defer close(w.out)
	defer w.timer.Stop()
	defer func() {
		if w.poll != nil {
			w.poll.Stop()
		}
	}()
	if w.opts.hold != nil {
		select {
		case <-w.opts.hold:
		case <-ctx.Done():
			return
		}
	}
	var events <-chan fsnotify.Event
	var errs <-chan error
	if w.fsw != nil {
		events, errs = w.fsw.Events, w.fsw.Errors
	}
	for {
		var out chan<- []Event
		if len(w.ready) > 0 {
			out = w.out
		}
		var pollC <-chan time.Time
		if w.poll != nil {
			pollC = w.poll.C
		}
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			w.safely("event", func() { w.handle(ev) })
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			w.safely("error", func() { w.handleError(err) })
		case <-w.timer.C:
			w.safely("flush", w.flush)
		case out <- w.ready:
			w.ready = nil
		case <-pollC:
			w.safely("poll", w.pollOnce)
		case f := <-w.opts.probe:
			f()
		}
	}
}

// safely runs one step of the loop; a bug in it is logged, not fatal.
func (w *Watcher) safely(what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			w.log.Error("watcher step panicked", "step", what, "panic", r, "stack", string(debug.Stack()))
		}
	}()
	f()
}

func (w *Watcher) handleError(err error) {
	if !errors.Is(err, fsnotify.ErrEventOverflow) {
		w.log.Warn("inotify error", "err", err)
		return
	}
	w.overflows++
	w.lastOverrun = time.Now()
	w.log.Warn("inotify queue overflowed; rescanning", "overflows", w.overflows)
	w.scan(w.root, true)
	w.publish()
}

// rel returns p relative to the root, slash-separated, or "" for the root
// itself and for paths outside it.
func (w *Watcher) rel(p string) string {
	if len(p) <= len(w.root) || p[:len(w.root)] != w.root || p[len(w.root)] != filepath.Separator {
		return ""
	}
	return filepath.ToSlash(p[len(w.root)+1:])
}

// skipDir and skipFile only see entries of directories already known not
// to be ignored (the walk never enters ignored ones, and events come from
// watched directories), so the parents need no second look.
func (w *Watcher) skipDir(p, name string) bool {
	return ignore.AlwaysSkipped[name] || w.m.IgnoredEntry(w.rel(p), true)
}

func (w *Watcher) skipFile(p, name string) bool {
	return isEditorArtifact(name) || w.m.IgnoredEntry(w.rel(p), false)
}

func (w *Watcher) handle(ev fsnotify.Event) {
	p := filepath.Clean(ev.Name)
	if p == w.root {
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			w.log.Warn("the watched root was removed or moved")
			w.dropDir(p, true)
		}
		return
	}
	if w.rel(p) == "" {
		return
	}
	name := filepath.Base(p)
	_, knownDir := w.tree.dirs[p]
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
			if !w.skipDir(p, name) {
				w.scan(p, true) // files made before the watch was added are found here
				w.publish()
			}
			return
		}
	}
	if knownDir {
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			w.dropDir(p, true)
			w.publish()
		}
		return
	}
	if name == ".gitignore" {
		relDir := path.Dir(w.rel(p))
		if relDir == "." {
			relDir = ""
		}
		w.m.Invalidate(relDir)
		defer w.resync(filepath.Dir(p))
	}
	if w.skipFile(p, name) {
		return
	}
	w.mark(p, ev.Op, time.Now())
}

// resync re-reads a directory after its .gitignore changed: newly ignored
// paths leave the snapshot, newly visible ones join it, silently.
func (w *Watcher) resync(dir string) {
	if w.tree.dirs[dir] == nil {
		return
	}
	w.scan(dir, false)
	w.publish()
}

func (w *Watcher) mark(p string, op fsnotify.Op, t time.Time) {
	pe := w.pending[p]
	if pe == nil {
		pe = &pend{known: w.tree.hasFile(p)}
		w.pending[p] = pe
	}
	pe.ops |= op
	pe.lastOp = op
	pe.last = t
	if w.first.IsZero() {
		w.first = t
	}
	w.last = t
	deadline := w.last.Add(w.opts.Debounce)
	if limit := w.first.Add(w.opts.MaxDelay); limit.Before(deadline) {
		deadline = limit
	}
	w.timer.Reset(time.Until(deadline))
}

// watchDir adds an inotify watch for dir, or makes it a polled root when the
// watch limit is reached.
func (w *Watcher) watchDir(dir string, n *dirNode) {
	if w.fsw != nil && (w.opts.MaxWatches <= 0 || w.watches < w.opts.MaxWatches) {
		err := w.fsw.Add(dir)
		switch {
		case err == nil:
			n.watched = true
			w.watches++
			return
		case errors.Is(err, fs.ErrNotExist):
			return // gone already; the parent's event will say so
		case !errors.Is(err, syscall.ENOSPC):
			w.log.Warn("cannot watch directory; polling it", "dir", dir, "err", err)
		}
	}
	n.polled = true
	w.polled++
	w.polledRoots[dir] = struct{}{}
	if w.poll == nil {
		w.poll = time.NewTicker(w.opts.PollInterval)
	}
}

// scan walks dir and what lies below it, watching directories it has not
// seen. With report, every difference from the snapshot becomes a pending
// change (the snapshot is updated when the batch settles); without, the
// snapshot is brought up to date silently.
func (w *Watcher) scan(dir string, report bool) {
	now := time.Now()
	stack := []string{dir}
	for len(stack) > 0 {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n, fresh := w.tree.node(d, w.root)
		if fresh && n.polled {
			w.polled++
		}
		if !n.watched && !n.polled {
			w.watchDir(d, n)
		}
		df, entries, err := readDir(d)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				w.dropDir(d, report)
			} else {
				w.log.Warn("cannot read directory", "dir", d, "err", err)
			}
			continue
		}
		dirfd := int(df.Fd())
		seen := make(map[string]bool, len(entries)) // name -> kept (false: now ignored)
		for _, e := range entries {
			name := e.Name()
			p := d + string(filepath.Separator) + name
			typ := e.Type()
			if typ.IsDir() {
				keep := !w.skipDir(p, name)
				seen[name] = keep
				if keep {
					stack = append(stack, p)
				}
				continue
			}
			if !typ.IsRegular() && typ&fs.ModeSymlink == 0 {
				continue
			}
			keep := !w.skipFile(p, name)
			seen[name] = keep
			if !keep {
				continue
			}
			st, ok := statEntry(dirfd, e, now)
			if !ok {
				continue // removed meanwhile; its event follows
			}
			prev, had := n.files[name]
			switch {
			case report:
				if !had || prev.changed(st) {
					w.mark(p, opScan, now)
				}
			default:
				if !had {
					w.tree.nfiles++
				}
				n.files[name] = st
			}
		}
		df.Close()
		for name := range n.subdirs {
			if keep, ok := seen[name]; !ok || !keep {
				w.dropDir(filepath.Join(d, name), report && !ok)
			}
		}
		for name := range n.files {
			keep, ok := seen[name]
			switch {
			case ok && keep:
			case report && !ok:
				w.mark(filepath.Join(d, name), fsnotify.Remove, now)
			default:
				delete(n.files, name)
				w.tree.nfiles--
			}
		}
	}
}

// dropDir forgets dir and everything below it. With report, the files it
// held become pending removals.
func (w *Watcher) dropDir(dir string, report bool) {
	now := time.Now()
	for _, d := range w.tree.subtree(dir) {
		n := w.tree.dirs[d]
		if n == nil {
			continue
		}
		for name := range n.files {
			if report {
				w.mark(filepath.Join(d, name), fsnotify.Remove, now)
			}
		}
		w.tree.nfiles -= len(n.files)
		if n.watched {
			w.watches--
			_ = w.fsw.Remove(d) // inotify may have dropped it already
		}
		if n.polled {
			w.polled--
			delete(w.polledRoots, d)
		}
		delete(w.tree.dirs, d)
	}
	if parent := w.tree.dirs[filepath.Dir(dir)]; parent != nil {
		delete(parent.subdirs, filepath.Base(dir))
	}
	if len(w.polledRoots) == 0 && w.poll != nil {
		w.poll.Stop()
		w.poll = nil
	}
}

// pollOnce rescans the polled subtrees. Directories that can be watched
// again are first handed back to inotify; they are still rescanned this
// once, so that a change made between the last poll and the new watch is
// not lost.
func (w *Watcher) pollOnce() {
	roots := make([]string, 0, len(w.polledRoots))
	for d := range w.polledRoots {
		roots = append(roots, d)
	}
	w.rearm(time.Now())
	for _, d := range roots {
		if w.tree.dirs[d] != nil { // not dropped by an earlier scan of this round
			w.scan(d, true)
		}
	}
	w.publish()
}

// flush turns the settled window into a batch.
func (w *Watcher) flush() {
	w.first = time.Time{}
	if len(w.pending) == 0 {
		return
	}
	now := time.Now()
	batch := make([]Event, 0, len(w.pending))
	for p, pe := range w.pending {
		if k, ok := w.resolve(p, pe, now); ok {
			batch = append(batch, Event{Path: p, Kind: k, Time: pe.last})
		}
	}
	clear(w.pending)
	w.ready = mergeBatches(w.ready, batch)
	w.publish()
}

// resolve decides what a path's raw history amounts to by looking at the
// file now, and updates the snapshot.
func (w *Watcher) resolve(p string, pe *pend, now time.Time) (Kind, bool) {
	n := w.tree.dirs[filepath.Dir(p)]
	base := filepath.Base(p)
	forget := func() {
		if n == nil {
			return
		}
		if _, ok := n.files[base]; ok {
			delete(n.files, base)
			w.tree.nfiles--
		}
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.IsDir() || (!fi.Mode().IsRegular() && fi.Mode()&fs.ModeSymlink == 0) {
		forget()
		if !pe.known {
			return 0, false // came and went inside the window: a temporary file
		}
		if pe.lastOp&fsnotify.Rename != 0 {
			return Renamed, true
		}
		return Removed, true
	}
	if n == nil {
		return 0, false // its directory is no longer covered
	}
	st := statOf(fi, now)
	prev, had := n.files[base]
	if !had {
		w.tree.nfiles++
	}
	n.files[base] = st
	if pe.ops&^fsnotify.Chmod == 0 && had && !prev.changed(st) {
		return 0, false // attributes only
	}
	if pe.known {
		return Written, true
	}
	return Created, true
}

// publish refreshes the shared Status from the loop's counters.
func (w *Watcher) publish() {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := Status{
		Root:         w.root,
		Watches:      w.watches,
		Polled:       w.polled,
		Files:        w.tree.nfiles,
		Overflows:    w.overflows,
		LastOverflow: w.lastOverrun,
	}
	s.refresh(w.limits, w.opts.PollInterval, w.noInotify)
	changed := s.Reason != w.status.Reason
	wasDegraded := w.status.Degraded
	w.status = s
	if changed && (s.Degraded || wasDegraded) {
		w.notify(s)
	}
}

// notify offers s on Notices, replacing an unread notice: only the latest
// state matters.
func (w *Watcher) notify(s Status) {
	for {
		select {
		case w.notices <- s:
			return
		default:
		}
		select {
		case <-w.notices:
		default:
		}
	}
}
