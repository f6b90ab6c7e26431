package ignore

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Files lists the regular files below root that are not ignored, as sorted
// slash-separated paths relative to root.
//
// In a git work tree this is what git would track: the tracked files plus
// the untracked ones no ignore rule excludes (`git ls-files -co
// --exclude-standard`), minus always-skipped directories. Elsewhere it walks
// the tree with a Matcher. extra are further patterns in gitignore syntax.
func Files(ctx context.Context, root string, extra ...string) ([]string, error) {
	if files, err := gitFiles(ctx, root); err == nil {
		m := NewMatcher(root, extra...)
		kept := files[:0]
		for _, f := range files {
			if !m.Ignored(f, false) && isRegular(filepath.Join(root, filepath.FromSlash(f))) {
				kept = append(kept, f)
			}
		}
		return kept, nil
	}
	return Walk(ctx, root, NewMatcher(root, extra...))
}

// Walk lists the regular files below root that m does not ignore, without
// asking git.
func Walk(ctx context.Context, root string, m *Matcher) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable subdirectory is not fatal
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if p == root {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if AlwaysSkipped[d.Name()] || m.ignoredOne(rel, true) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || m.ignoredOne(rel, false) {
			return nil
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walking %s: %w", root, err)
	}
	sort.Strings(files)
	return files, nil
}

func gitFiles(ctx context.Context, root string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %w", root, err)
	}
	seen := map[string]bool{}
	var files []string
	for _, f := range bytes.Split(out, []byte{0}) {
		s := string(f)
		if s == "" || seen[s] || strings.HasPrefix(s, "../") {
			continue
		}
		seen[s] = true
		files = append(files, s)
	}
	sort.Strings(files)
	return files, nil
}

func isRegular(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}
