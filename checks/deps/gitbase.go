package deps

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// gitBase answers "which dependencies did this manifest have at HEAD?",
// caching the answer until HEAD moves.
type gitBase struct {
	mu sync.Mutex
	m  map[string]gitBaseEntry // manifest path -> names at HEAD
}

type gitBaseEntry struct {
	head    string
	names   map[string]bool
	tracked bool
}

// baseNames returns the normalised dependency names of the manifest at
// path as committed at HEAD, and whether HEAD has the file at all.
func (g *gitBase) baseNames(ctx context.Context, path string, k manifestKind) (map[string]bool, bool) {
	gitDir := findGitDir(filepath.Dir(path))
	if gitDir == "" {
		return nil, false
	}
	head := headStamp(gitDir)
	g.mu.Lock()
	e, ok := g.m[path]
	g.mu.Unlock()
	if ok && e.head == head {
		return e.names, e.tracked
	}
	e = gitBaseEntry{head: head}
	data, tracked, err := gitShowHead(ctx, path)
	if err != nil {
		slog.Debug("deps: reading the manifest at HEAD failed; treating every dependency as new", "path", path, "err", err)
		return nil, false // not cached: a timeout may not repeat
	}
	if tracked {
		e.tracked = true
		e.names = map[string]bool{}
		if ents, err := k.entries(data); err == nil {
			for _, d := range ents {
				name, _, _ := d.registryName()
				e.names[popKey(k.ecosystem(), name)] = true
			}
		}
	}
	g.mu.Lock()
	if g.m == nil {
		g.m = map[string]gitBaseEntry{}
	}
	g.m[path] = e
	g.mu.Unlock()
	return e.names, e.tracked
}

// gitShowHead runs `git show HEAD:./file`. tracked is false when the
// repository has no HEAD commit or HEAD has no such file.
func gitShowHead(ctx context.Context, path string) (data []byte, tracked bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "show", "HEAD:./"+filepath.Base(path))
	cmd.Dir = filepath.Dir(path)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ctx.Err() == nil {
			return nil, false, nil // 128: no such path or no commit yet
		}
		return nil, false, err
	}
	return out, true, nil
}

// findGitDir returns the git directory of the repository holding dir, or "".
func findGitDir(dir string) string {
	for {
		p := filepath.Join(dir, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return p
			}
			// A worktree or submodule: ".git" is a file naming the directory.
			if b, err := readSmall(p, 4096); err == nil {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); ok {
					gd := strings.TrimSpace(rest)
					if !filepath.IsAbs(gd) {
						gd = filepath.Join(dir, gd)
					}
					return gd
				}
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// headStamp changes whenever HEAD points elsewhere: HEAD's text, and the
// stamps of the branch ref and packed-refs it may resolve through.
func headStamp(gitDir string) string {
	head, _ := readSmall(filepath.Join(gitDir, "HEAD"), 4096)
	common := gitDir
	if b, err := readSmall(filepath.Join(gitDir, "commondir"), 4096); err == nil {
		common = filepath.Join(gitDir, strings.TrimSpace(string(b)))
	}
	s := string(head)
	if ref, ok := strings.CutPrefix(strings.TrimSpace(s), "ref: "); ok {
		st := statStamp(filepath.Join(common, filepath.FromSlash(ref)))
		s += "|" + stampString(st)
	}
	s += "|" + stampString(statStamp(filepath.Join(common, "packed-refs")))
	return s
}

func stampString(st stamp) string {
	if !st.exists {
		return "-"
	}
	return time.Unix(0, st.mod).Format(time.RFC3339Nano) + "/" + strconv.FormatInt(st.size, 10)
}

// readSmall reads a file of at most max bytes.
func readSmall(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > max {
		return nil, errors.New(path + ": too large")
	}
	buf := make([]byte, fi.Size())
	n, err := f.Read(buf)
	if err != nil && n == 0 && fi.Size() > 0 {
		return nil, err
	}
	return buf[:n], nil
}
