package workspace

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/checks/secrets"
	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/internal/ignore"
	"github.com/aisbx/aisbx/internal/provenance"
	"github.com/aisbx/aisbx/watcher"
)

// activity is what a workspace knows of agents at work: the provenance
// store, the watcher, the last content seen per file (to tell what an
// external write changed), background findings of files no editor has open,
// and the automatic test run.
type activity struct {
	mu          sync.Mutex
	store       *provenance.Store
	storeErr    error
	watcher     *watcher.Watcher
	watchStat   watcher.Status
	last        map[string][]byte    // path -> content last checked
	saved       map[string]time.Time // path -> last editor save
	hooked      map[string]time.Time // path -> last hook report
	bg          map[string]Background
	recent      []Activity
	auto        autoTest
	committed   []provenance.Edit // git-ai notes and Agent Trace records
	committedAt time.Time
	fastQ       checkQueue // background checks waiting: in-process checks
	slowQ       checkQueue // and linters
}

// Background is a file checked because an agent wrote it.
type Background struct {
	Content  []byte
	Findings []checks.Finding
	Time     time.Time
}

// Activity is one line of the workspace's recent history, for `aisbxd
// status` and `aisbxd watch`.
type Activity struct {
	Time   time.Time `json:"time"`
	Kind   string    `json:"kind"` // ai-edit, checked, tests
	Tool   string    `json:"tool,omitempty"`
	File   string    `json:"file,omitempty"` // workspace-relative
	Detail string    `json:"detail"`
}

// maxRecent bounds the activity history kept in memory.
const maxRecent = 200

// settle is how long after an editor save (or a hook report) a disk write
// of the same file is taken for that save, not for an unknown writer.
const settle = 3 * time.Second

func (w *Workspace) note(a Activity) {
	w.act.mu.Lock()
	w.act.recent = append(w.act.recent, a)
	if len(w.act.recent) > maxRecent {
		w.act.recent = w.act.recent[len(w.act.recent)-maxRecent:]
	}
	w.act.mu.Unlock()
}

// Recent returns the workspace's recent activity, newest last.
func (w *Workspace) Recent(n int) []Activity {
	w.act.mu.Lock()
	defer w.act.mu.Unlock()
	if n > len(w.act.recent) {
		n = len(w.act.recent)
	}
	return append([]Activity(nil), w.act.recent[len(w.act.recent)-n:]...)
}

// Provenance opens the workspace's provenance store on first use.
func (w *Workspace) Provenance() (*provenance.Store, error) {
	if w.Root == "" {
		return nil, os.ErrNotExist
	}
	w.act.mu.Lock()
	defer w.act.mu.Unlock()
	if w.act.store == nil && w.act.storeErr == nil {
		w.act.store, w.act.storeErr = provenance.OpenStore(w.Root, provenance.StoreOptions{})
		if w.act.storeErr != nil {
			w.log.Warn("provenance store unavailable", "err", w.act.storeErr)
		}
	}
	return w.act.store, w.act.storeErr
}

// HookOptions are the options of provenance parsing in this workspace:
// prompts are kept, redacted.
func HookOptions() provenance.HookOptions {
	return provenance.HookOptions{Redactor: secrets.RedactText}
}

// NoteSaved records that an editor saved path, so the disk write that
// follows is not taken for an agent's.
func (w *Workspace) NoteSaved(path string, content []byte) {
	w.act.mu.Lock()
	if w.act.saved == nil {
		w.act.saved = map[string]time.Time{}
	}
	w.act.saved[path] = time.Now()
	w.setLastLocked(path, content)
	w.act.mu.Unlock()
	if r, err := w.Runner(); err == nil {
		r.NoteChanged(w.rel(path))
	}
}

func (w *Workspace) setLastLocked(path string, content []byte) {
	if w.act.last == nil {
		w.act.last = map[string][]byte{}
	}
	if content != nil {
		w.act.last[path] = content
	}
}

// LastContent is the last content aisbx checked of path (the "before" of a
// generic hook edit).
func (w *Workspace) LastContent(path string) ([]byte, bool) {
	w.act.mu.Lock()
	defer w.act.mu.Unlock()
	b, ok := w.act.last[path]
	return b, ok
}

// RecordEdit stores an AI edit, tells every user, and checks and tests the
// file in the background.
func (w *Workspace) RecordEdit(e provenance.Edit, content []byte) (provenance.Edit, error) {
	store, err := w.Provenance()
	if err != nil {
		return e, err
	}
	saved, err := store.Add(e)
	if err != nil {
		return e, err
	}
	w.note(Activity{Time: saved.Time, Kind: "ai-edit", Tool: string(saved.Tool), File: w.rel(saved.File),
		Detail: editDetail(saved)})
	w.publish(Event{Kind: EventAIEdit, Edit: &saved, Files: []string{saved.File}})
	return saved, nil
}

func editDetail(e provenance.Edit) string {
	d := string(e.Source)
	if e.Model != "" {
		d += ", " + e.Model
	}
	return d + ", " + plural(e.Lines(), "line")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// CheckInBackground checks an agent-written file and publishes the findings
// for editors that do not have it open: the in-process checks at once, the
// user's linters (which take longer) after.
func (w *Workspace) CheckInBackground(ctx context.Context, path string, content []byte) checks.Result {
	f := checks.NewFile(w.Root, path, content)
	f.OnDisk = true
	return w.CheckPhased(ctx, f, func(res checks.Result) { w.setBackground(path, content, res.Findings) })
}

// setBackground keeps a background check's findings and tells every user.
func (w *Workspace) setBackground(path string, content []byte, findings []checks.Finding) {
	w.act.mu.Lock()
	if w.act.bg == nil {
		w.act.bg = map[string]Background{}
	}
	w.act.bg[path] = Background{Content: content, Findings: findings, Time: time.Now()}
	w.setLastLocked(path, content)
	w.act.mu.Unlock()
	w.publish(Event{Kind: EventFindings, Files: []string{path}})
}

// checkQueue runs background checks of one speed: files wait in order, a
// file queued again while waiting is checked once, with its content when a
// worker gets to it.
type checkQueue struct {
	paths   []string
	queued  map[string]bool
	workers int
}

// bgWorkers bounds concurrent background checks of each speed.
var bgWorkers = max(2, runtime.GOMAXPROCS(0))

// queueCheck checks path in the background: the fast checks first for
// every waiting file, then the linters, so a burst of agent writes gets its
// secrets and dangerous patterns reported before any linter runs.
func (w *Workspace) queueCheck(path string) { w.enqueue(&w.act.fastQ, path, true) }

func (w *Workspace) enqueue(q *checkQueue, path string, fast bool) {
	w.act.mu.Lock()
	if q.queued == nil {
		q.queued = map[string]bool{}
	}
	if q.queued[path] {
		w.act.mu.Unlock()
		return
	}
	q.queued[path] = true
	q.paths = append(q.paths, path)
	start := q.workers < bgWorkers
	if start {
		q.workers++
	}
	w.act.mu.Unlock()
	if start {
		go w.checkWorker(q, fast)
	}
}

func (w *Workspace) checkWorker(q *checkQueue, fast bool) {
	for {
		w.act.mu.Lock()
		if len(q.paths) == 0 || w.ctx.Err() != nil {
			q.workers--
			w.act.mu.Unlock()
			return
		}
		path := q.paths[0]
		q.paths = q.paths[1:]
		delete(q.queued, path)
		w.act.mu.Unlock()
		content, err := os.ReadFile(path)
		if err != nil {
			continue // removed meanwhile
		}
		f := checks.NewFile(w.Root, path, content)
		f.OnDisk = true
		if !fast {
			// The linters, merged with the fast findings of the same content:
			// the file may have changed since its fast check, and what is
			// published must always be whole. The fast engine's cache makes
			// that second look cheap when nothing changed.
			lr := w.LinterEngine().Run(w.ctx, f)
			findings := checks.MergeFindings(w.FastEngine().Run(w.ctx, f).Findings, lr.Findings)
			w.setBackground(path, content, findings)
			w.note(Activity{Time: time.Now(), Kind: "checked", File: w.rel(path), Detail: findingsDetail(findings)})
			continue
		}
		res := w.FastEngine().Run(w.ctx, f)
		w.setBackground(path, content, res.Findings)
		if w.LinterEngine() != nil {
			w.enqueue(&w.act.slowQ, path, false)
		} else {
			w.note(Activity{Time: time.Now(), Kind: "checked", File: w.rel(path), Detail: findingsDetail(res.Findings)})
		}
	}
}

func findingsDetail(fs []checks.Finding) string {
	if len(fs) == 0 {
		return "clean"
	}
	count := map[checks.Severity]int{}
	for _, f := range fs {
		count[f.Severity]++
	}
	var parts []string
	for _, s := range []checks.Severity{checks.SeverityError, checks.SeverityWarning, checks.SeverityInfo} {
		if count[s] > 0 {
			parts = append(parts, plural(count[s], s.String()))
		}
	}
	return strings.Join(parts, ", ")
}

// BackgroundFindings returns the last background check of path.
func (w *Workspace) BackgroundFindings(path string) (Background, bool) {
	w.act.mu.Lock()
	defer w.act.mu.Unlock()
	b, ok := w.act.bg[path]
	return b, ok
}

// Unreviewed returns the AI edits of path not yet marked reviewed.
func (w *Workspace) Unreviewed(path string) []provenance.Edit {
	store, err := w.Provenance()
	if err != nil {
		return nil
	}
	var out []provenance.Edit
	for _, e := range store.ByFile(path) {
		if !e.Reviewed && len(e.Ranges) > 0 {
			out = append(out, e)
		}
	}
	return out
}

// MarkReviewed marks AI edits reviewed.
func (w *Workspace) MarkReviewed(ids ...string) error {
	store, err := w.Provenance()
	if err != nil {
		return err
	}
	var files []string
	for _, id := range ids {
		e, err := store.MarkReviewed(id)
		if err != nil {
			return err
		}
		files = append(files, e.File)
	}
	if err := store.Flush(); err != nil {
		w.log.Warn("saving provenance", "err", err)
	}
	w.publish(Event{Kind: EventAIEdit, Files: files})
	return nil
}

// MapEdit shifts recorded AI ranges of path through an editor change.
func (w *Workspace) MapEdit(path string, c provenance.LineChange) {
	if store, err := w.Provenance(); err == nil && store.MapRanges(path, c) > 0 {
		w.publish(Event{Kind: EventAIEdit, Files: []string{path}})
	}
}

func (w *Workspace) rel(path string) string {
	if w.Root == "" {
		return path
	}
	rel, err := filepath.Rel(w.Root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return path
	}
	return filepath.ToSlash(rel)
}

// startWatching watches the workspace for writes by other processes.
func (w *Workspace) startWatching() {
	cfg := w.Config()
	if !w.opts.Watch || w.Root == "" || !cfg.Watch.Enabled {
		return
	}
	go func() {
		m := ignore.NewMatcher(w.Root, cfg.Watch.Exclude...)
		wt, err := watcher.New(w.ctx, w.Root, watcher.Options{Matcher: m, Logger: w.log, OnBatch: w.onBatch})
		if err != nil {
			w.log.Warn("cannot watch the workspace", "err", err)
			return
		}
		w.act.mu.Lock()
		if w.ctx.Err() != nil {
			w.act.mu.Unlock()
			wt.Close()
			return
		}
		w.act.watcher = wt
		w.act.watchStat = wt.Status()
		w.act.mu.Unlock()
		for st := range wt.Notices() {
			w.act.mu.Lock()
			w.act.watchStat = st
			w.act.mu.Unlock()
			if st.Degraded {
				w.log.Warn("watching degraded", "reason", st.Reason)
			} else {
				w.log.Info("watching recovered: every directory is watched again")
			}
			stCopy := st
			w.publish(Event{Kind: EventWatch, Watch: &stCopy})
		}
	}()
}

func (w *Workspace) stopWatching() {
	w.act.mu.Lock()
	wt := w.act.watcher
	w.act.watcher = nil
	store := w.act.store
	w.act.mu.Unlock()
	if wt != nil {
		wt.Close()
	}
	if store != nil {
		if err := store.Close(); err != nil {
			w.log.Warn("closing provenance store", "err", err)
		}
	}
}

// WatchStatus reports how the workspace is watched.
func (w *Workspace) WatchStatus() (watcher.Status, bool) {
	w.act.mu.Lock()
	defer w.act.mu.Unlock()
	return w.act.watchStat, w.act.watcher != nil
}

// onBatch handles settled file events: config and manifest changes, then
// writes by other processes, which are taken for an agent's when no editor
// explains them.
func (w *Workspace) onBatch(events []watcher.Event) {
	var changed []string
	recheck := false
	for _, ev := range events {
		existence := ev.Kind != watcher.Written
		if w.Engine().FileChanged(ev.Path, existence) {
			recheck = true
		}
		if ev.Path == w.ConfigPath() || ev.Path == config.UserPath() {
			w.ReloadConfig()
			continue
		}
		changed = append(changed, w.rel(ev.Path))
		if ev.Kind == watcher.Removed || ev.Kind == watcher.Renamed {
			w.forget(ev.Path)
			continue
		}
		w.externalWrite(ev)
	}
	if r, err := w.Runner(); err == nil && len(changed) > 0 {
		r.NoteChanged(changed...)
	}
	if recheck {
		// Open documents depend on what changed (a manifest): check again.
		w.publish(Event{Kind: EventConfig, ConfigApplied: true})
	}
}

// externalWrite classifies and checks one written file.
func (w *Workspace) externalWrite(ev watcher.Event) {
	info, err := os.Stat(ev.Path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > int64(w.Config().Checks.MaxFileSize) {
		return
	}
	content, err := os.ReadFile(ev.Path)
	if err != nil || bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0 {
		return
	}
	w.act.mu.Lock()
	before, haveBefore := w.act.last[ev.Path]
	savedAt, saved := w.act.saved[ev.Path]
	hookedAt, hooked := w.act.hooked[ev.Path]
	w.act.mu.Unlock()
	if haveBefore && bytes.Equal(before, content) {
		return // nothing new (a touch, or the write we already checked)
	}
	dirty := false
	for p := range w.Overlay() {
		dirty = dirty || filepath.Join(w.Root, p) == ev.Path
	}
	change := provenance.DiskChange{
		File: ev.Path, Time: ev.Time, Content: content,
		DirtyInClient: dirty,
		SavedByClient: saved && ev.Time.Sub(savedAt) < settle,
		GitBusy:       provenance.GitBusy(w.Root),
	}
	if haveBefore {
		change.Ranges = provenance.RangesFromDiff(before, content)
	}
	if hooked && ev.Time.Sub(hookedAt) < settle {
		// The agent's hook reported this write: its record is exact.
		w.queueCheck(ev.Path)
		return
	}
	if e, ok := provenance.ExternalWrite(change); ok {
		w.act.mu.Lock()
		w.setLastLocked(ev.Path, content)
		w.act.mu.Unlock()
		if _, err := w.RecordEdit(e, content); err != nil {
			w.log.Warn("recording an external write", "err", err)
		}
		w.queueCheck(ev.Path)
		w.scheduleAutoTest(w.rel(ev.Path))
		return
	}
	w.act.mu.Lock()
	w.setLastLocked(ev.Path, content)
	w.act.mu.Unlock()
}

// forget drops what the workspace knew of a removed file.
func (w *Workspace) forget(path string) {
	w.act.mu.Lock()
	_, had := w.act.bg[path]
	delete(w.act.bg, path)
	delete(w.act.last, path)
	w.act.mu.Unlock()
	if had {
		w.publish(Event{Kind: EventFindings, Files: []string{path}})
	}
}

// NoteHook records that a hook reported an edit of path, so the watcher
// does not count the same write again as an unknown one.
func (w *Workspace) NoteHook(path string) {
	w.act.mu.Lock()
	if w.act.hooked == nil {
		w.act.hooked = map[string]time.Time{}
	}
	w.act.hooked[path] = time.Now()
	w.act.mu.Unlock()
}

// RecentEdits returns the newest AI edits of the workspace.
func (w *Workspace) RecentEdits(n int) []provenance.Edit {
	store, err := w.Provenance()
	if err != nil {
		return nil
	}
	es := store.Recent(n)
	sort.Slice(es, func(i, j int) bool { return es[i].Time.Before(es[j].Time) })
	return es
}
