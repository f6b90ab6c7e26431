package testsel

import (
	"context"
	"os"
	"path/filepath"
	"sync"
)

// importCache remembers each file's parsed imports while its size and mtime
// hold, so a selection re-parses only what changed since the last one.
type importCache struct {
	mu    sync.Mutex
	files map[string]importEntry
}

type importEntry struct {
	size, mtime int64
	fi          fileImports
}

// importsOf parses the imports of files (workspace-relative) in parallel
// with parse, from the cache where it is fresh. Unreadable or unparsable
// files have no imports: selection degrades, it does not fail.
func (c *importCache) importsOf(ctx context.Context, w *workspace, files []string, parse func(rel string, src []byte) (fileImports, error)) map[string]fileImports {
	out := make(map[string]fileImports, len(files))
	type job struct {
		rel         string
		size, mtime int64
		cache       bool
	}
	var jobs []job
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]importEntry{}
	}
	c.forgetOthers(files)
	for _, rel := range files {
		if _, ok := w.overlay[rel]; ok {
			jobs = append(jobs, job{rel: rel})
			continue
		}
		st, err := os.Stat(filepath.Join(w.root, filepath.FromSlash(rel)))
		if err != nil {
			continue // deleted: nothing to import
		}
		size, mtime := st.Size(), st.ModTime().UnixNano()
		if e, ok := c.files[rel]; ok && e.size == size && e.mtime == mtime {
			out[rel] = e.fi
			continue
		}
		jobs = append(jobs, job{rel: rel, size: size, mtime: mtime, cache: true})
	}
	c.mu.Unlock()

	var mu sync.Mutex
	parallel(ctx, jobs, func(j job) {
		src, err := w.read(j.rel)
		if err != nil {
			return
		}
		fi, err := parse(j.rel, src)
		if err != nil {
			return
		}
		mu.Lock()
		out[j.rel] = fi
		mu.Unlock()
		if j.cache {
			c.mu.Lock()
			c.files[j.rel] = importEntry{size: j.size, mtime: j.mtime, fi: fi}
			c.mu.Unlock()
		}
	})
	return out
}

// forgetOthers drops the entries of files of the same language that are no
// longer listed, so the cache follows the workspace instead of growing.
// files all share one language; entries of other languages are kept.
func (c *importCache) forgetOthers(files []string) {
	if len(files) == 0 {
		return
	}
	lang, _ := LangOf(files[0])
	listed := make(map[string]bool, len(files))
	for _, f := range files {
		listed[f] = true
	}
	for f := range c.files {
		if l, _ := LangOf(f); l == lang && !listed[f] {
			delete(c.files, f)
		}
	}
}
