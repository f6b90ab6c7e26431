package workspace

import (
	"path/filepath"
	"strings"
	"sync"
)

// overlays collects the unsaved editor buffers of every connection, so a
// sandbox run sees what the user sees, whichever window started it.
type overlays struct {
	mu   sync.Mutex
	next int
	fns  map[int]func() map[string][]byte
}

// AddOverlay registers a source of unsaved buffers (absolute path ->
// content); the returned func removes it.
func (w *Workspace) AddOverlay(fn func() map[string][]byte) (remove func()) {
	w.overlay.mu.Lock()
	defer w.overlay.mu.Unlock()
	if w.overlay.fns == nil {
		w.overlay.fns = map[int]func() map[string][]byte{}
	}
	id := w.overlay.next
	w.overlay.next++
	w.overlay.fns[id] = fn
	return func() {
		w.overlay.mu.Lock()
		delete(w.overlay.fns, id)
		w.overlay.mu.Unlock()
	}
}

// Overlay returns every connection's unsaved buffers inside the workspace,
// by workspace-relative path.
func (w *Workspace) Overlay() map[string][]byte {
	w.overlay.mu.Lock()
	fns := make([]func() map[string][]byte, 0, len(w.overlay.fns))
	for _, fn := range w.overlay.fns {
		fns = append(fns, fn)
	}
	w.overlay.mu.Unlock()
	out := map[string][]byte{}
	for _, fn := range fns {
		for path, content := range fn() {
			rel, err := filepath.Rel(w.Root, path)
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			out[filepath.ToSlash(rel)] = content
		}
	}
	return out
}
