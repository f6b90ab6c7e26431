package watcher

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// racyWindow is how close to the moment of stat a file's mtime may be and
// still change again unseen: file times come from a coarse kernel clock, so
// a write right after the stat can leave size and mtime equal. Such entries
// are treated as changed by the next rescan (git calls this "racy").
const racyWindow = 50 * time.Millisecond

// fileStat is what a rescan compares to notice a change without reading
// the file.
type fileStat struct {
	size  int64
	mtime int64 // ns
	ino   uint64
	racy  bool
}

func statOf(fi fs.FileInfo, now time.Time) fileStat {
	st := fileStat{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ino = sys.Ino
	}
	st.racy = now.UnixNano()-st.mtime < int64(racyWindow)
	return st
}

// changed reports whether cur differs from the recorded st, counting a racy
// record as changed.
func (st fileStat) changed(cur fileStat) bool {
	return st.racy || st.size != cur.size || st.mtime != cur.mtime || st.ino != cur.ino
}

// dirNode is the snapshot of one directory the watcher covers.
type dirNode struct {
	files   map[string]fileStat // base name -> stat
	subdirs map[string]struct{} // base names of covered subdirectories
	watched bool                // holds an inotify watch
	polled  bool                // inside a polled subtree
}

// tree is the watcher's snapshot of the workspace: every covered directory
// and the stat of every file in it. It is owned by the event loop.
type tree struct {
	dirs   map[string]*dirNode // absolute path -> node
	nfiles int
}

func newTree() *tree { return &tree{dirs: map[string]*dirNode{}} }

func (t *tree) hasFile(p string) bool {
	n := t.dirs[filepath.Dir(p)]
	if n == nil {
		return false
	}
	_, ok := n.files[filepath.Base(p)]
	return ok
}

// node returns the node of dir, creating and linking it under its parent.
func (t *tree) node(dir, root string) (*dirNode, bool) {
	if n := t.dirs[dir]; n != nil {
		return n, false
	}
	n := &dirNode{files: map[string]fileStat{}, subdirs: map[string]struct{}{}}
	t.dirs[dir] = n
	if dir != root {
		if parent := t.dirs[filepath.Dir(dir)]; parent != nil {
			parent.subdirs[filepath.Base(dir)] = struct{}{}
			n.polled = parent.polled
		}
	}
	return n, true
}

// subtree lists dir and every covered directory below it, parents first.
func (t *tree) subtree(dir string) []string {
	out := []string{dir}
	for i := 0; i < len(out); i++ {
		n := t.dirs[out[i]]
		if n == nil {
			continue
		}
		for name := range n.subdirs {
			out = append(out, filepath.Join(out[i], name))
		}
	}
	return out
}

// readDir opens a directory and lists it without the sort os.ReadDir does.
// The caller closes the returned file, which statEntry uses meanwhile.
func readDir(dir string) (*os.File, []os.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	entries, err := f.ReadDir(-1)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, entries, nil
}
