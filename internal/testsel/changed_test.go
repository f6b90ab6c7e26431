package testsel

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/aisbx/aisbx/internal/testfs"
)

// TestChangedSince builds a git repository, changes it in every way git
// knows (modify, stage, delete, rename, add untracked, add ignored) and
// checks what ChangedSince reports, from the root and from a subdirectory,
// against HEAD and against an older revision.
func TestChangedSince(t *testing.T) {
	needTool(t, "git")
	root := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+root)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q", "-b", "main")
	write(".gitignore", "build/\n")
	write("a/keep.go", "package a\n")
	write("a/edit.go", "package a\n")
	write("a/gone.go", "package a\n")
	write("a/old.go", "package a\n")
	write("b/staged.py", "x = 1\n")
	run("add", "-A")
	run("commit", "-q", "-m", "one")
	write("c/later.js", "export {}\n")
	run("add", "-A")
	run("commit", "-q", "-m", "two")

	write("a/edit.go", "package a\n\nvar X = 1\n")
	if err := os.Remove(filepath.Join(root, "a/gone.go")); err != nil {
		t.Fatal(err)
	}
	run("mv", "a/old.go", "a/new.go")
	write("b/staged.py", "x = 2\n")
	run("add", "b/staged.py")
	write("d/untracked.go", "package d\n")
	write("build/out.bin", "ignored")
	write("node_modules/x/index.js", "always skipped")

	cases := []struct {
		dir, rev string
		want     []string
	}{
		{".", "", []string{"a/edit.go", "a/gone.go", "a/new.go", "a/old.go", "b/staged.py", "d/untracked.go"}},
		{".", "HEAD~1", []string{"a/edit.go", "a/gone.go", "a/new.go", "a/old.go", "b/staged.py", "c/later.js", "d/untracked.go"}},
		{"a", "", []string{"edit.go", "gone.go", "new.go", "old.go"}},
	}
	for _, c := range cases {
		got, err := ChangedSince(t.Context(), filepath.Join(root, c.dir), c.rev)
		if err != nil {
			t.Fatalf("%s@%q: %v", c.dir, c.rev, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s@%q:\n got %v\nwant %v", c.dir, c.rev, got, c.want)
		}
	}
	if _, err := ChangedSince(t.Context(), root, "no-such-rev"); err == nil {
		t.Error("an unknown revision gave no error")
	}
	if _, err := ChangedSince(t.Context(), root, "--output=/tmp/x"); err == nil {
		t.Error("a revision that is a flag was passed to git")
	}
}

// TestSelectorCacheFollowsEdits: after a selection has cached the import
// graphs, an edit that adds an import is seen by the next selection, for
// each language.
func TestSelectorCacheFollowsEdits(t *testing.T) {
	root := t.TempDir()
	testfs.CopyTree(t, "testdata/workspaces/gows", filepath.Join(root, "go"))
	testfs.CopyTree(t, "testdata/workspaces/pyws", filepath.Join(root, "py"))
	testfs.CopyTree(t, "testdata/workspaces/jsws", filepath.Join(root, "js"))
	s := New(root, Options{})
	units := func(changed string) []string {
		t.Helper()
		sel, err := s.Select(t.Context(), Request{Changed: []string{changed}})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range sel.Plans {
			out = append(out, p.Units...)
		}
		return out
	}
	edit := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		// A later mtime, whatever the file system's timestamp granularity.
		later := mustStat(t, p).ModTime().Add(2e9)
		if err := os.Chtimes(p, later, later); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		changed, edited, content, newUnit string
	}{
		{"go/textutil/textutil.go", "go/shapes/shapes.go",
			"package shapes\n\nimport (\n\t\"example.com/gows/geom\"\n\t\"example.com/gows/textutil\"\n)\n\nvar _ = textutil.Reverse\n\nfunc SquareArea(side int) int { return geom.Area(side, side) }\n",
			"./shapes"},
		{"py/src/textx/words.py", "py/tests/test_ops.py", "import textx.words\nfrom calc.ops import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n", "tests/test_ops.py"},
		{"js/src/strings.js", "js/test/math.test.js", "import { reverse } from '../src/strings.js';\n", "test/math.test.js"},
	}
	for _, c := range cases {
		if contains(units(c.changed), c.newUnit) {
			t.Fatalf("%s selected %s before the edit", c.changed, c.newUnit)
		}
		edit(c.edited, c.content)
		if got := units(c.changed); !contains(got, c.newUnit) {
			t.Errorf("after editing %s, %s selects %v, missing %s", c.edited, c.changed, got, c.newUnit)
		}
	}
}

func mustStat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// TestSelectorCacheFollowsModuleRename: package import paths cached by
// directory follow a go.mod whose module line changed.
func TestSelectorCacheFollowsModuleRename(t *testing.T) {
	root := t.TempDir()
	testfs.CopyTree(t, "testdata/workspaces/gows", root)
	s := New(root, Options{})
	unitOf := func() string {
		t.Helper()
		sel, err := s.Select(t.Context(), Request{Changed: []string{"geom/geom_test.go"}})
		if err != nil {
			t.Fatal(err)
		}
		return sel.Items()[0].Unit
	}
	if got := unitOf(); got != "example.com/gows/geom" {
		t.Fatalf("before: %s", got)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/renamed\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := unitOf(); got != "example.com/renamed/geom" {
		t.Errorf("after the rename: %s", got)
	}
}
