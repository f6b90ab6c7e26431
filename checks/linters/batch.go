package linters

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/aisbx/aisbx/checks"
)

// Batches run a per-file tool once over many files, for the CLI (see
// checks.Preparer): bandit pays about 0.2 s of start-up per process and
// ESLint about 0.5 s, which dominated `aisbxd check` on Python and
// JavaScript trees. Prepare cuts the files into chunks (defaultBatchSize
// files, or the tool's batchSize) in the order the CLI will check them. A
// chunk runs when the first of its files is asked for, together with the
// chunks right after it, so that about GOMAXPROCS tool processes work
// while the CLI's workers wait on the earliest. Editors never prepare: a
// file is linted alone, at once.

// defaultBatchSize is how many files one tool process checks, unless the
// tool says otherwise (tool.batchSize): enough to pay the start-up once for
// about a second of work, few enough that a file's Run does not wait long
// behind the rest of its chunk. Bandit spends about 35 ms a file.
const defaultBatchSize = 32

// lintManyFunc lints paths (absolute, on disk) in one process started in
// dir. It returns each file's diagnostics and the files the tool could not
// check, keyed by filepath.Clean(path); err is for the run as a whole.
type lintManyFunc func(ctx context.Context, env *toolEnv, dir string, paths []string) (byPath map[string][]diag, failed map[string]error, err error)

// batch is one chunk of files for one tool.
type batch struct {
	tool  *tool
	bin   string
	dir   string
	paths []string
	next  *batch // the following chunk in check order, for look-ahead

	once   sync.Once
	done   chan struct{}
	byPath map[string][]diag
	failed map[string]error
	err    error
}

// batchEntry is a file waiting for its batch.
type batchEntry struct {
	b     *batch
	stamp fileStamp // the file when the batch was planned
}

type batches struct {
	mu      sync.Mutex
	entries map[string]batchEntry // tool name + "\x00" + path
	started atomic.Int64          // batch processes started (for tests)
}

// Prepare plans batches of files for the tools that lint many files in one
// process (checks.Preparer). Nothing runs until a file is asked for.
func (c *Check) Prepare(_ context.Context, files []*checks.File) {
	for _, t := range c.tools {
		if t.lintMany == nil {
			continue
		}
		// One process per tool binary and working directory, as a file
		// alone would get.
		type group struct {
			bin, dir string
			files    []*checks.File
		}
		var order []*group
		groups := map[[2]string]*group{}
		for _, f := range files {
			if !f.OnDisk || !t.handles(f) {
				continue
			}
			bin := c.paths.find(t, f)
			if bin == "" {
				continue
			}
			dir := projectDir(f)
			if t.workDir != nil {
				dir = t.workDir(f)
			}
			if dir == "" {
				continue
			}
			key := [2]string{bin, dir}
			g := groups[key]
			if g == nil {
				g = &group{bin: key[0], dir: key[1]}
				groups[key] = g
				order = append(order, g)
			}
			g.files = append(g.files, f)
		}
		var prev *batch
		for _, g := range order {
			size := defaultBatchSize
			if t.batchSize > 0 {
				size = t.batchSize
			}
			for chunk := range slices.Chunk(g.files, size) {
				b := &batch{tool: t, bin: g.bin, dir: g.dir, done: make(chan struct{})}
				c.batches.mu.Lock()
				if c.batches.entries == nil {
					c.batches.entries = map[string]batchEntry{}
				}
				for _, f := range chunk {
					fi, err := os.Stat(f.Path)
					if err != nil {
						continue // the file's own Run reports it
					}
					c.batches.entries[t.name+"\x00"+f.Path] = batchEntry{b: b, stamp: stampOf(f.Path, fi)}
					b.paths = append(b.paths, f.Path)
				}
				if prev != nil {
					prev.next = b
				}
				c.batches.mu.Unlock()
				prev = b
			}
		}
	}
}

// fromBatch answers t's run on f from a prepared batch. ok is false when
// none holds f, when the batch failed as a whole, or when f changed since
// it was planned: the caller then runs the tool on f alone. err is the
// tool's word on f alone (it could not parse it, say).
func (c *Check) fromBatch(ctx context.Context, t *tool, f *checks.File) (ds []diag, ok bool, err error) {
	key := t.name + "\x00" + f.Path
	c.batches.mu.Lock()
	e, found := c.batches.entries[key]
	delete(c.batches.entries, key)
	c.batches.mu.Unlock()
	if !found {
		return nil, false, nil
	}
	c.startBatches(ctx, e.b)
	select {
	case <-e.b.done:
	case <-ctx.Done():
		return nil, true, ctx.Err()
	}
	if e.b.err != nil {
		return nil, false, nil
	}
	fi, statErr := os.Stat(f.Path)
	if statErr != nil || stampOf(f.Path, fi) != e.stamp || int64(len(f.Content)) != fi.Size() {
		return nil, false, nil
	}
	return e.b.byPath[filepath.Clean(f.Path)], true, e.b.failed[filepath.Clean(f.Path)]
}

// startBatches starts b and the chunks after it, GOMAXPROCS in all; each
// runs once. They run detached from ctx (bounded by the tool timeout): the
// files waiting on a batch are not only the caller's.
func (c *Check) startBatches(ctx context.Context, b *batch) {
	for i, b := 0, b; b != nil && i < max(runtime.GOMAXPROCS(0), 1); i, b = i+1, b.next {
		b.once.Do(func() {
			c.batches.started.Add(1)
			go func() {
				defer close(b.done)
				env := &toolEnv{bin: b.bin, timeout: c.timeout, sem: c.sem, check: c}
				_, b.err = runDetached(ctx, func(ctx context.Context) ([]diag, error) {
					var err error
					b.byPath, b.failed, err = b.tool.lintMany(ctx, env, b.dir, b.paths)
					return nil, err
				})
			}()
		})
	}
}
