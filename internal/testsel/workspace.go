package testsel

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/aisbx/aisbx/internal/ignore"
)

// workspace is one look at the files of a workspace, taken per selection.
type workspace struct {
	root    string
	files   []string        // non-ignored files, sorted, slash-separated
	exists  map[string]bool // files, plus deleted files named as changed (their importers still point at them)
	overlay map[string][]byte

	goModules  []goModule
	pyProjects []string // project dirs, deepest first
	jsProjects []string
}

var pyProjectMarkers = []string{"pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini"}

func loadWorkspace(ctx context.Context, root string, extraIgnore []string, changed []string, overlay map[string][]byte) (*workspace, error) {
	// testdata holds fixtures: no graph reads it, and in a large tree it
	// is a third of the files (GOROOT/src). A changed file there is still
	// mapped, by its path.
	files, err := ignore.Files(ctx, root, append([]string{"testdata/"}, extraIgnore...)...)
	if err != nil {
		return nil, fmt.Errorf("listing files of %s: %w", root, err)
	}
	w := &workspace{root: root, files: files, exists: make(map[string]bool, len(files)+len(changed)), overlay: overlay}
	for _, f := range files {
		w.exists[f] = true
	}
	for _, c := range changed {
		w.exists[c] = true
	}
	for f := range overlay {
		w.exists[f] = true
	}
	py, js := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		if isFixturePath(f) {
			continue
		}
		dir, base := path.Dir(f), path.Base(f)
		switch {
		case base == "package.json":
			js[dir] = true
		case contains(pyProjectMarkers, base):
			py[dir] = true
		}
	}
	w.pyProjects = deepestFirst(py)
	w.jsProjects = deepestFirst(js)
	if w.goModules, err = findGoModules(w); err != nil {
		return nil, err
	}
	return w, nil
}

// read returns a file's content, from the overlay of unsaved buffers first.
func (w *workspace) read(rel string) ([]byte, error) {
	if b, ok := w.overlay[rel]; ok {
		return b, nil
	}
	return os.ReadFile(filepath.Join(w.root, filepath.FromSlash(rel)))
}

// projectOf returns the deepest project dir in dirs (deepest first) that
// contains rel, or "." when none does.
func projectOf(dirs []string, rel string) string {
	for _, d := range dirs {
		if within(rel, d) {
			return d
		}
	}
	return "."
}

// within reports whether rel is dir or below it; "." contains everything.
func within(rel, dir string) bool {
	return dir == "." || rel == dir || strings.HasPrefix(rel, dir+"/")
}

// relTo returns rel relative to dir, both workspace-relative.
func relTo(rel, dir string) string {
	if dir == "." {
		return rel
	}
	if rel == dir {
		return "."
	}
	return strings.TrimPrefix(rel, dir+"/")
}

// isFixturePath reports paths inside a testdata directory: Go's convention
// for fixtures, which aisbx also applies to Python and JS files there.
func isFixturePath(rel string) bool {
	return rel == "testdata" || strings.HasPrefix(rel, "testdata/") || strings.Contains(rel, "/testdata/")
}

func deepestFirst(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		di, dj := strings.Count(out[i], "/"), strings.Count(out[j], "/")
		if out[i] == "." {
			di = -1
		}
		if out[j] == "." {
			dj = -1
		}
		if di != dj {
			return di > dj
		}
		return out[i] < out[j]
	})
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
