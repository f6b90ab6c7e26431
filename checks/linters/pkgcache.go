package linters

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// pkgCache runs a package-level tool once per (tool, directory, content of
// the directory's Go files and go.mod) and shares the diagnostics with every
// file of the package: checking 40 files of one package runs go vet once.
type pkgCache struct {
	mu      sync.Mutex
	entries map[string]*pkgEntry
	order   []string // insertion order, for eviction
	hashes  map[fileStamp]string
}

type pkgEntry struct {
	done  chan struct{}
	diags []diag
	err   error
}

// fileStamp identifies a file version cheaply, so each file is read and
// hashed once per version rather than once per file of its package.
type fileStamp struct {
	path  string
	size  int64
	mtime time.Time
}

func stampOf(path string, fi os.FileInfo) fileStamp {
	return fileStamp{path: path, size: fi.Size(), mtime: fi.ModTime()}
}

const (
	pkgCacheEntries = 256
	maxStamps       = 50000
)

func newPkgCache() *pkgCache {
	return &pkgCache{entries: map[string]*pkgEntry{}, hashes: map[fileStamp]string{}}
}

// do returns the diagnostics of tool over dir, computing them with fn at most
// once per content. fn runs detached from ctx (bounded by the tool timeout),
// so that one caller giving up does not fail the others waiting on it.
func (c *pkgCache) do(ctx context.Context, tool, dir, modFile string, fn func(context.Context) ([]diag, error)) ([]diag, error) {
	key, err := c.key(tool, dir, modFile)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	e, ok := c.entries[key]
	if !ok {
		e = &pkgEntry{done: make(chan struct{})}
		c.entries[key] = e
		c.order = append(c.order, key)
		c.evict()
		c.mu.Unlock()
		go func() {
			e.diags, e.err = runDetached(ctx, fn)
			if e.err != nil {
				c.forget(key, e) // let the next save try again
			}
			close(e.done)
		}()
	} else {
		c.mu.Unlock()
	}
	select {
	case <-e.done:
		return e.diags, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// runDetached runs fn without ctx's cancellation. Its goroutine is nobody's
// caller, so a panicking parser becomes an error here rather than taking the
// daemon down.
func runDetached(ctx context.Context, fn func(context.Context) ([]diag, error)) (ds []diag, err error) {
	defer func() {
		if p := recover(); p != nil {
			ds, err = nil, fmt.Errorf("adapter panicked: %v", p)
		}
	}()
	return fn(context.WithoutCancel(ctx))
}

func (c *pkgCache) forget(key string, e *pkgEntry) {
	c.mu.Lock()
	if c.entries[key] == e {
		delete(c.entries, key)
	}
	c.mu.Unlock()
}

func (c *pkgCache) evict() {
	for len(c.order) > pkgCacheEntries {
		old := c.order[0]
		c.order = c.order[1:]
		if e, ok := c.entries[old]; ok {
			select {
			case <-e.done:
				delete(c.entries, old)
			default:
				c.order = append(c.order, old) // still running; keep it
				return
			}
		}
	}
}

// key hashes the tool, the directory and the content of its Go files and of
// the module's go.mod.
func (c *pkgCache) key(tool, dir, modFile string) (string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var files []string
	for _, e := range ents {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".go") {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(files)
	if modFile != "" {
		files = append(files, modFile)
	}
	h := sha256.New()
	io.WriteString(h, tool+"\x00"+dir+"\x00")
	for _, p := range files {
		fh, err := c.fileHash(p)
		if err != nil {
			continue // vanished meanwhile: the tool will notice
		}
		io.WriteString(h, p+"\x00"+fh+"\x00")
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func (c *pkgCache) fileHash(p string) (string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	st := stampOf(p, fi)
	c.mu.Lock()
	h, ok := c.hashes[st]
	c.mu.Unlock()
	if ok {
		return h, nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	h = hex.EncodeToString(sum[:])
	c.mu.Lock()
	if len(c.hashes) > maxStamps {
		c.hashes = map[fileStamp]string{}
	}
	c.hashes[st] = h
	c.mu.Unlock()
	return h, nil
}
