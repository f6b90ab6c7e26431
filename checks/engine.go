package checks

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"sync"
	"time"
)

// Options tunes an Engine. The zero value is usable.
type Options struct {
	// Timeout bounds each check's Run. Zero means DefaultTimeout.
	Timeout time.Duration
	// CheckTimeouts overrides Timeout per check name (linters need seconds
	// on a cold build cache; in-process checks should be cut off sooner).
	CheckTimeouts map[string]time.Duration
	// MaxFileSize skips files larger than this many bytes; zero: no limit.
	MaxFileSize int
	// DisabledRules are rule ids whose findings are dropped.
	DisabledRules []string
	// Severity overrides the severity of rule ids.
	Severity map[string]Severity
	// CacheEntries bounds the result cache. Zero means DefaultCacheEntries;
	// negative disables it.
	CacheEntries int
}

const (
	DefaultTimeout      = 3 * time.Second
	DefaultCacheEntries = 1024
)

// Result is what an Engine found in one file.
type Result struct {
	Findings []Finding // sorted by position, never nil
	Errors   []CheckError
	Cached   bool
	// Skipped says why the file was not checked at all (too large).
	Skipped string
}

// Uncacheable is implemented by checks whose findings depend on more than
// the file's own content (a linter that type-checks the whole package):
// the engine runs them every time instead of serving them from its cache.
// They are expected to cache what they can themselves.
type Uncacheable interface {
	Uncacheable()
}

func cacheable(c Check) bool {
	_, no := c.(Uncacheable)
	return !no
}

// CheckError says that one check failed on one file; the other checks'
// findings are still in the Result.
type CheckError struct {
	Check string
	Err   error
}

func (e CheckError) Error() string { return e.Check + ": " + e.Err.Error() }

// Engine runs checks over files. It is safe for concurrent use.
type Engine struct {
	checks   []Check
	timeout  time.Duration
	timeouts map[string]time.Duration
	maxSize  int
	disabled map[string]bool
	severity map[string]Severity
	cache    *resultCache
}

// NewEngine returns an Engine that runs checks with opts.
func NewEngine(opts Options, checks ...Check) *Engine {
	e := &Engine{
		checks:   checks,
		timeout:  opts.Timeout,
		timeouts: opts.CheckTimeouts,
		maxSize:  opts.MaxFileSize,
		disabled: map[string]bool{},
		severity: opts.Severity,
	}
	if e.timeout <= 0 {
		e.timeout = DefaultTimeout
	}
	for _, r := range opts.DisabledRules {
		e.disabled[r] = true
	}
	switch {
	case opts.CacheEntries == 0:
		e.cache = newResultCache(DefaultCacheEntries)
	case opts.CacheEntries > 0:
		e.cache = newResultCache(opts.CacheEntries)
	}
	return e
}

// Checks returns the engine's checks.
func (e *Engine) Checks() []Check { return e.checks }

// Prepare gives each check that batches (Preparer) the files it applies to,
// ahead of their Run.
func (e *Engine) Prepare(ctx context.Context, files []*File) {
	for _, c := range e.checks {
		p, ok := c.(Preparer)
		if !ok {
			continue
		}
		var mine []*File
		for _, f := range files {
			if c.Applies(f) {
				mine = append(mine, f)
			}
		}
		if len(mine) > 0 {
			p.Prepare(ctx, mine)
		}
	}
}

// Invalidate drops cached results, for when something outside the files
// changed (a manifest, installed packages).
func (e *Engine) Invalidate() {
	if e.cache != nil {
		e.cache.clear()
	}
}

// Run runs every check that applies to f, concurrently, and returns their
// findings with suppressions applied. Findings of cacheable checks are
// cached by path and content; Uncacheable checks run every time.
func (e *Engine) Run(ctx context.Context, f *File) Result {
	if e.maxSize > 0 && len(f.Content) > e.maxSize {
		return Result{Findings: []Finding{}, Skipped: fmt.Sprintf("%d bytes is over the %d-byte limit (checks.max_file_size)", len(f.Content), e.maxSize)}
	}
	var key [32]byte
	var cached []Finding
	hit := false
	if e.cache != nil {
		key = cacheKey(f)
		cached, hit = e.cache.get(key)
	}

	var toRun []Check
	for _, c := range e.checks {
		if c.Applies(f) && (!hit || !cacheable(c)) {
			toRun = append(toRun, c)
		}
	}
	type out struct {
		findings []Finding
		err      *CheckError
	}
	results := make([]out, len(toRun))
	var wg sync.WaitGroup
	for i, c := range toRun {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fs, err := e.runOne(ctx, c, f)
			for j := range fs {
				fs[j].Check = c.Name()
			}
			results[i] = out{findings: fs}
			if err != nil {
				results[i].err = &CheckError{Check: c.Name(), Err: err}
			}
		}()
	}
	wg.Wait()

	r := Result{Cached: hit}
	raw := append([]Finding{}, cached...)
	var fresh []Finding // of cacheable checks, for the cache
	cacheOK := true
	for i, o := range results {
		if o.err != nil {
			r.Errors = append(r.Errors, *o.err)
			if cacheable(toRun[i]) {
				cacheOK = false
			}
		}
		raw = append(raw, o.findings...)
		if cacheable(toRun[i]) {
			fresh = append(fresh, o.findings...)
		}
	}
	// A cancelled caller must not poison the cache with partial results.
	if e.cache != nil && !hit && ctx.Err() == nil && cacheOK {
		e.cache.put(key, fresh)
	}
	r.Findings = e.postProcess(f, raw)
	return r
}

// runOne runs a check with the engine's timeout. A check that overruns is
// abandoned (its goroutine finishes on its own once it notices ctx); a panic
// becomes an error, because one bad check must not take the daemon down.
func (e *Engine) runOne(ctx context.Context, c Check, f *File) ([]Finding, error) {
	timeout := e.timeout
	if t, ok := e.timeouts[c.Name()]; ok && t > 0 {
		timeout = t
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type ret struct {
		fs  []Finding
		err error
	}
	done := make(chan ret, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- ret{err: fmt.Errorf("check panicked: %v\n%s", p, debug.Stack())}
			}
		}()
		fs, err := c.Run(ctx, f)
		done <- ret{fs, err}
	}()
	select {
	case r := <-done:
		return r.fs, r.err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("timed out after %v", timeout)
		}
		return nil, ctx.Err()
	}
}

// postProcess drops disabled and suppressed findings, applies severity
// overrides, clamps offsets, removes duplicates, adds the "suppress" fix and
// sorts.
func (e *Engine) postProcess(f *File, in []Finding) []Finding {
	sup := newSuppressions(f)
	out := make([]Finding, 0, len(in))
	seen := map[[3]any]bool{}
	for _, fd := range in {
		if e.disabled[fd.Rule] || sup.suppressed(fd) {
			continue
		}
		fd.Start = clamp(fd.Start, 0, len(f.Content))
		fd.End = clamp(fd.End, fd.Start, len(f.Content))
		k := [3]any{fd.Rule, fd.Start, fd.End}
		if seen[k] {
			continue
		}
		seen[k] = true
		if s, ok := e.severity[fd.Rule]; ok {
			fd.Severity = s
		}
		if fix, ok := sup.fix(fd); ok {
			fd.Fixes = append(fd.Fixes[:len(fd.Fixes):len(fd.Fixes)], fix)
		}
		out = append(out, fd)
	}
	sortFindings(out)
	return out
}

// sortFindings orders findings by position, then rule.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Start != fs[j].Start {
			return fs[i].Start < fs[j].Start
		}
		return fs[i].Rule < fs[j].Rule
	})
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

func cacheKey(f *File) [32]byte {
	h := sha256.New()
	h.Write([]byte(f.Path))
	if f.OnDisk {
		h.Write([]byte{1})
	} else {
		h.Write([]byte{0})
	}
	h.Write(f.Content)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// FileWatcher is implemented by checks whose findings depend on files other
// than the one checked (manifests, installed packages, a .gitleaks.toml).
// existenceChanged is true when the file was created, removed or renamed.
type FileWatcher interface {
	DependsOn(path string, existenceChanged bool) bool
}

// FileChanged tells the engine that a file changed on disk. When a check
// depends on it, the cache is dropped (the check drops its own state) and
// FileChanged reports true, so open documents can be checked again.
func (e *Engine) FileChanged(path string, existenceChanged bool) bool {
	hit := false
	for _, c := range e.checks {
		if fw, ok := c.(FileWatcher); ok && fw.DependsOn(path, existenceChanged) {
			hit = true
		}
	}
	if hit {
		e.Invalidate()
	}
	return hit
}

// MergeFindings merges two engines' findings for the same file, in
// position order, dropping a finding of b that a already has.
func MergeFindings(a, b []Finding) []Finding {
	out := make([]Finding, 0, len(a)+len(b))
	out = append(out, a...)
	seen := make(map[[3]any]bool, len(a))
	for _, f := range a {
		seen[[3]any{f.Rule, f.Start, f.End}] = true
	}
	for _, f := range b {
		if !seen[[3]any{f.Rule, f.Start, f.End}] {
			out = append(out, f)
		}
	}
	sortFindings(out)
	return out
}
