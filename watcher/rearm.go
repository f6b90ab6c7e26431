package watcher

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"time"
)

// rearm offers polled directories back to inotify, parents first, once
// watches may have freed up: directories removed elsewhere in the tree, a
// raised fs.inotify.max_user_watches, another program closing its watches.
// A directory that still cannot be watched stays polled, and so does
// everything below it. It runs on the event loop, at most once per
// RearmInterval.
func (w *Watcher) rearm(now time.Time) {
	if w.fsw == nil || len(w.polledRoots) == 0 || now.Sub(w.lastRearm) < w.opts.RearmInterval {
		return
	}
	w.lastRearm = now
	roots := make([]string, 0, len(w.polledRoots))
	for d := range w.polledRoots {
		roots = append(roots, d)
	}
	sort.Strings(roots) // the polled subtrees are disjoint; sorted for a stable order
	promoted := 0
roots:
	for _, root := range roots {
		for _, d := range w.tree.subtree(root) {
			n := w.tree.dirs[d]
			if n == nil || !n.polled {
				continue
			}
			if w.opts.MaxWatches > 0 && w.watches >= w.opts.MaxWatches {
				break roots
			}
			if err := w.fsw.Add(d); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					continue // the next scan drops it
				}
				break roots // still no room (ENOSPC) or broken: try again later
			}
			n.polled, n.watched = false, true
			w.polled--
			w.watches++
			promoted++
		}
	}
	if promoted == 0 {
		return
	}
	// The polled subtrees now start lower down, or nowhere.
	clear(w.polledRoots)
	for d, n := range w.tree.dirs {
		if !n.polled {
			continue
		}
		if parent := w.tree.dirs[filepath.Dir(d)]; d == w.root || parent == nil || !parent.polled {
			w.polledRoots[d] = struct{}{}
		}
	}
	if len(w.polledRoots) == 0 && w.poll != nil {
		w.poll.Stop()
		w.poll = nil
	}
	w.log.Info("polled directories are watched again", "watched", promoted, "still polled", w.polled)
}
