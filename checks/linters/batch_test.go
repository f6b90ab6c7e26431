package linters

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/aisbx/aisbx/checks"
)

// TestBatchesMatchOneByOne: bandit over many files in one process (what the
// CLI does after Prepare) reports exactly what it reports on each file
// alone, errors included, and a file edited after Prepare is linted as it
// now is.
func TestBatchesMatchOneByOne(t *testing.T) {
	root := copySources(t)
	src := fileIn(t, root, "py", "a.py")
	requireTool(t, banditTool, src)
	// 40 variants of a.py (two chunks of batchSize 32), half with one more
	// finding, and broken.py, which bandit cannot parse.
	var files []*checks.File
	for i := range 40 {
		content := fmt.Appendf(nil, "# variant %d\n%s", i, src.Content)
		if i%2 == 0 {
			content = append(content, "\nimport pickle\n"...)
		}
		path := filepath.Join(root, "py", fmt.Sprintf("gen%02d.py", i))
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		f := checks.NewFile(src.Root, path, content)
		f.OnDisk = true
		files = append(files, f)
	}
	files = append(files, fileIn(t, root, "py", "broken.py"))

	lint := func(c *Check, f *checks.File) []string {
		fs, err := c.Run(t.Context(), f)
		got := describe(filepath.Base(f.Path), f, fs)
		if err != nil {
			got = append(got, "error: "+err.Error())
		}
		return got
	}
	newBandit := func() *Check {
		c, err := New(Options{Enabled: []string{"bandit"}})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}

	batched := newBandit()
	batched.Prepare(t.Context(), files)
	if n := len(batched.batches.entries); n != len(files) {
		t.Fatalf("%d files planned, want %d", n, len(files))
	}
	// An edit after planning: the file's run must see it, not the batch.
	edited := files[1]
	edited.Content = append(edited.Content, "\nimport subprocess\nsubprocess.call('ls', shell=True)\n"...)
	if err := os.WriteFile(edited.Path, edited.Content, 0o644); err != nil {
		t.Fatal(err)
	}

	alone := newBandit()
	sawError := false
	for _, f := range files {
		want, got := lint(alone, f), lint(batched, f)
		if !slices.Equal(got, want) {
			t.Errorf("%s: batched\n%q\nalone\n%q", filepath.Base(f.Path), got, want)
		}
		sawError = sawError || slices.ContainsFunc(got, func(s string) bool { return len(s) > 6 && s[:6] == "error:" })
	}
	if !sawError {
		t.Error("broken.py: no error from bandit, batched or alone")
	}
	if n := batched.batches.started.Load(); n != 2 {
		t.Errorf("%d batch processes for %d files, want 2", n, len(files))
	}
	if n := len(batched.batches.entries); n != 0 {
		t.Errorf("%d planned files never asked for", n)
	}
}
