package linters

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/aisbx/aisbx/checks"
)

// globalTTL is how long a PATH lookup is trusted, so that a tool installed
// while the daemon runs is picked up without a restart.
const globalTTL = 30 * time.Second

// pathCache finds tool executables. Project-local installs (node_modules,
// a virtualenv) are looked up on every run, a few stats; global ones are
// cached for globalTTL.
type pathCache struct {
	mu     sync.Mutex
	global map[string]globalEntry
}

type globalEntry struct {
	path string
	at   time.Time
}

func newPathCache() *pathCache { return &pathCache{global: map[string]globalEntry{}} }

// find returns the executable that should lint f, or "".
func (p *pathCache) find(t *tool, f *checks.File) string {
	if len(t.local) > 0 {
		for _, dir := range dirsUp(filepath.Dir(f.Path), f.Root) {
			for _, sub := range t.local {
				if c := filepath.Join(dir, sub, t.bin); isExecutable(c) {
					return c
				}
			}
		}
	}
	p.mu.Lock()
	e, ok := p.global[t.bin]
	p.mu.Unlock()
	if ok && time.Since(e.at) < globalTTL {
		return e.path
	}
	path := lookGlobal(t)
	p.mu.Lock()
	p.global[t.bin] = globalEntry{path: path, at: time.Now()}
	p.mu.Unlock()
	return path
}

// lookGlobal finds t on PATH, then, for Go tools, where `go install` puts
// them: editors often start the daemon with a PATH that lacks ~/go/bin.
func lookGlobal(t *tool) string {
	if p, err := exec.LookPath(t.bin); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
		return p
	}
	if !t.goBin {
		return ""
	}
	var dirs []string
	if d := os.Getenv("GOBIN"); d != "" {
		dirs = append(dirs, d)
	}
	for _, d := range filepath.SplitList(os.Getenv("GOPATH")) {
		dirs = append(dirs, filepath.Join(d, "bin"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, "go", "bin"))
	}
	if t.bin == "go" {
		dirs = append(dirs, "/usr/local/go/bin")
	}
	for _, d := range dirs {
		if c := filepath.Join(d, t.bin); isExecutable(c) {
			return c
		}
	}
	return ""
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}
