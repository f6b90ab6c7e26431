package ignore

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// AlwaysSkipped are directory names aisbx never descends into, whatever the
// .gitignore files say: version-control data, dependency trees and caches.
var AlwaysSkipped = map[string]bool{
	".git":          true,
	".hg":           true,
	".svn":          true,
	"node_modules":  true,
	"vendor":        true,
	"__pycache__":   true,
	".venv":         true,
	".mypy_cache":   true,
	".pytest_cache": true,
	".ruff_cache":   true,
	".tox":          true,
	".aisbx":        true,
	".next":         true,
	".cache":        true,
}

// Matcher answers whether a path below a root is ignored. It reads the
// root's .git/info/exclude and every .gitignore between the root and the
// path, lazily, and caches them. It is safe for concurrent use.
type Matcher struct {
	root  string
	extra []pattern

	mu    sync.Mutex
	byDir map[string][]pattern // rel dir -> patterns of its .gitignore
}

// NewMatcher returns a Matcher for root. extra are additional patterns in
// gitignore syntax, relative to root (for instance from aisbx.toml).
func NewMatcher(root string, extra ...string) *Matcher {
	m := &Matcher{root: root, byDir: map[string][]pattern{}}
	for _, line := range extra {
		if p, ok := parsePattern("", line); ok {
			m.extra = append(m.extra, p)
		}
	}
	if data, err := os.ReadFile(filepath.Join(root, ".git", "info", "exclude")); err == nil {
		m.extra = append(parseLines("", data), m.extra...)
	}
	return m
}

// Root returns the directory the matcher was made for.
func (m *Matcher) Root() string { return m.root }

// Invalidate forgets the cached .gitignore of the directory rel (relative,
// slash-separated), so that an edited .gitignore is read again.
func (m *Matcher) Invalidate(relDir string) {
	m.mu.Lock()
	delete(m.byDir, relDir)
	m.mu.Unlock()
}

// Ignored reports whether rel (relative to the root, either separator) is
// ignored: an always-skipped directory on its path, or the last matching
// gitignore rule says so. A path inside an ignored directory is ignored.
func (m *Matcher) Ignored(rel string, isDir bool) bool {
	rel = filepath.ToSlash(rel)
	rel = strings.TrimPrefix(path.Clean("/"+rel), "/")
	if rel == "" {
		return false
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		prefixIsDir := i < len(parts)-1 || isDir
		if prefixIsDir && AlwaysSkipped[parts[i]] {
			return true
		}
		if m.ignoredOne(strings.Join(parts[:i+1], "/"), prefixIsDir) {
			return true
		}
	}
	return false
}

// IgnoredEntry reports whether one entry is ignored by the rules, without
// looking at its parent directories: for walkers that never descend into an
// ignored directory, it answers the same as Ignored at a fraction of the cost.
func (m *Matcher) IgnoredEntry(rel string, isDir bool) bool {
	if isDir && AlwaysSkipped[path.Base(rel)] {
		return true
	}
	return m.ignoredOne(filepath.ToSlash(rel), isDir)
}

// ignoredOne applies the rules to one path, without looking at its parents.
func (m *Matcher) ignoredOne(rel string, isDir bool) bool {
	ignored := false
	check := func(ps []pattern) {
		for _, p := range ps {
			if p.match(rel, isDir) {
				ignored = !p.negate
			}
		}
	}
	check(m.extra)
	dir := path.Dir(rel)
	// Rules from .gitignore files of every ancestor, outermost first.
	ancestors := []string{""}
	if dir != "." {
		parts := strings.Split(dir, "/")
		for i := range parts {
			ancestors = append(ancestors, strings.Join(parts[:i+1], "/"))
		}
	}
	for _, a := range ancestors {
		check(m.patterns(a))
	}
	return ignored
}

func (m *Matcher) patterns(relDir string) []pattern {
	m.mu.Lock()
	defer m.mu.Unlock()
	if ps, ok := m.byDir[relDir]; ok {
		return ps
	}
	data, err := os.ReadFile(filepath.Join(m.root, filepath.FromSlash(relDir), ".gitignore"))
	var ps []pattern
	if err == nil {
		ps = parseLines(relDir, data)
	}
	m.byDir[relDir] = ps
	return ps
}

func parseLines(base string, data []byte) []pattern {
	var ps []pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if p, ok := parsePattern(base, sc.Text()); ok {
			ps = append(ps, p)
		}
	}
	return ps
}
