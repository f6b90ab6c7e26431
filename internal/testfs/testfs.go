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
	"strings"
	"testing"
)

// CopyTree copies the files below from into to.
func CopyTree(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
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
