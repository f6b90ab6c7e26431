// Package testfs sets up workspaces on disk for tests: a copy of a sample
// tree, made a git repository with one commit, and the line a test marks.
// Test helpers only; standard library only.
package testfs

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// CopyTree copies the files below from into to, with their permission
// bits. Directories with a name in skip (node_modules, say) are left out
// wherever they are.
func CopyTree(t testing.TB, from, to string, skip ...string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			if p != from && slices.Contains(skip, d.Name()) {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TempCopy copies the files below from into a new temp dir of t's and
// returns it.
func TempCopy(t testing.TB, from string) string {
	t.Helper()
	dir := t.TempDir()
	CopyTree(t, from, dir)
	return dir
}

// Git runs git in dir and fails the test if it fails.
func Git(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// GitRepo makes dir a git repository with everything in it committed, so
// that later changes are what `git diff` shows.
func GitRepo(t testing.TB, dir string) {
	t.Helper()
	Git(t, dir, "init", "-q")
	Git(t, dir, "add", "-A")
	Git(t, dir, "-c", "user.email=test@example.com", "-c", "user.name=test", "commit", "-qm", "sample")
}

// MarkedLine is the 1-based line of path that holds marker.
func MarkedLine(t testing.TB, path, marker string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), marker) {
			return n
		}
	}
	t.Fatalf("no %q in %s", marker, path)
	return 0
}
