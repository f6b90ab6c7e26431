package deps

import (
	"io/fs"
	"os"
	"sync"
)

// stamp identifies one version of a file or directory cheaply: a change of
// content shows as a change of mtime or size (a directory's mtime changes
// when an entry is added or removed).
type stamp struct {
	mod    int64
	size   int64
	exists bool
}

func statStamp(path string) stamp {
	fi, err := os.Stat(path)
	if err != nil {
		return stamp{}
	}
	return stamp{mod: fi.ModTime().UnixNano(), size: fi.Size(), exists: true}
}

// fileCache holds values parsed from files, re-parsed when the file's stamp
// changes. A missing file is cached as missing (ok=false) until it appears.
type fileCache[T any] struct {
	mu sync.Mutex
	m  map[string]fileEntry[T]
}

type fileEntry[T any] struct {
	st  stamp
	val T
	err error
}

// get returns the value parsed from path. ok is false when the file does not
// exist; err is the parse error, if any (also cached until the file changes).
func (c *fileCache[T]) get(path string, parse func(path string, data []byte) (T, error)) (val T, ok bool, err error) {
	st := statStamp(path)
	c.mu.Lock()
	e, hit := c.m[path]
	c.mu.Unlock()
	if hit && e.st == st {
		return e.val, st.exists, e.err
	}
	if st.exists {
		data, rerr := os.ReadFile(path)
		if rerr != nil {
			e = fileEntry[T]{st: st, err: rerr}
		} else {
			v, perr := parse(path, data)
			e = fileEntry[T]{st: st, val: v, err: perr}
		}
	} else {
		e = fileEntry[T]{st: st}
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]fileEntry[T]{}
	}
	c.m[path] = e
	c.mu.Unlock()
	return e.val, st.exists, e.err
}

// dirListing is what a directory holds: entry name -> is a directory (a
// symlink counts as a directory when it points at one, as node_modules links
// made by pnpm do).
type dirListing struct {
	entries map[string]bool
	// pyModules are the importable Python names the directory provides:
	// foo.py, foo.pyi, foo.cpython-311-x86_64-linux-gnu.so, foo/.
	pyModules map[string]bool
}

func (l *dirListing) has(name string) bool {
	if l == nil {
		return false
	}
	_, ok := l.entries[name]
	return ok
}

func (l *dirListing) isDir(name string) bool {
	return l != nil && l.entries[name]
}

// dirCache lists directories, re-reading one when its mtime changes.
type dirCache struct {
	mu sync.Mutex
	m  map[string]dirEntry
}

type dirEntry struct {
	st stamp
	l  *dirListing
}

// list returns the listing of dir, or nil when dir does not exist.
func (c *dirCache) list(dir string) *dirListing {
	st := statStamp(dir)
	c.mu.Lock()
	e, hit := c.m[dir]
	c.mu.Unlock()
	if hit && e.st == st {
		return e.l
	}
	var l *dirListing
	if st.exists {
		l = readListing(dir)
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]dirEntry{}
	}
	c.m[dir] = dirEntry{st: st, l: l}
	c.mu.Unlock()
	return l
}

func readListing(dir string) *dirListing {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	l := &dirListing{entries: make(map[string]bool, len(ents)), pyModules: map[string]bool{}}
	for _, e := range ents {
		name := e.Name()
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(dir + string(os.PathSeparator) + name); err == nil {
				isDir = fi.IsDir()
			}
		}
		l.entries[name] = isDir
		if m := pyModuleName(name, isDir); m != "" {
			l.pyModules[m] = true
		}
	}
	return l
}
