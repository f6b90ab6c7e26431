package linters

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/checks"
)

// TestBatchesMatchOneByOne: a tool over many files in one process (what the
// CLI does after Prepare) reports exactly what it reports on each file
// alone, errors included, and a file edited after Prepare is linted as it
// now is.
func TestBatchesMatchOneByOne(t *testing.T) {
	tests := []struct {
		tool            *tool
		dir, src        string
		broken          string // a file the tool cannot parse
		more, edit      string // appended: one more finding; an edit after planning
		brokenIsAnError bool   // bandit fails on it; ESLint reports a parse error finding
	}{
		{banditTool, "py", "a.py", "broken.py", "\nimport pickle\n", "\nimport subprocess\nsubprocess.call('ls', shell=True)\n", true},
		{eslintTool, "js", "a.js", "broken.js", "\nvar more = 1;\n", "\nif (y == 3) { undefinedToo(); }\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.tool.name, func(t *testing.T) {
			root := copySources(t)
			linkESLint(t, root)
			src := fileIn(t, root, tt.dir, tt.src)
			requireTool(t, tt.tool, src)
			// 40 variants (two chunks for bandit, one for ESLint), half
			// with one more finding, and the broken file.
			var files []*checks.File
			for i := range 40 {
				content := fmt.Appendf(nil, "%s// variant %d\n", src.Content, i)
				if tt.tool == banditTool {
					content = fmt.Appendf(nil, "%s# variant %d\n", src.Content, i)
				}
				if i%2 == 0 {
					content = append(content, tt.more...)
				}
				path := filepath.Join(root, tt.dir, fmt.Sprintf("gen%02d%s", i, filepath.Ext(tt.src)))
				if err := os.WriteFile(path, content, 0o644); err != nil {
					t.Fatal(err)
				}
				f := checks.NewFile(src.Root, path, content)
				f.OnDisk = true
				files = append(files, f)
			}
			files = append(files, fileIn(t, root, tt.dir, tt.broken))

			lint := func(c *Check, f *checks.File) []string {
				fs, err := c.Run(t.Context(), f)
				got := describe(filepath.Base(f.Path), f, fs)
				if err != nil {
					got = append(got, "error: "+err.Error())
				}
				return got
			}
			newCheck := func() *Check {
				c, err := New(Options{Enabled: []string{tt.tool.name}})
				if err != nil {
					t.Fatal(err)
				}
				return c
			}

			batched := newCheck()
			batched.Prepare(t.Context(), files)
			if n := len(batched.batches.entries); n != len(files) {
				t.Fatalf("%d files planned, want %d", n, len(files))
			}
			edited := files[1]
			edited.Content = append(edited.Content, tt.edit...)
			if err := os.WriteFile(edited.Path, edited.Content, 0o644); err != nil {
				t.Fatal(err)
			}

			alone := newCheck()
			findings, sawError := 0, false
			for _, f := range files {
				want, got := lint(alone, f), lint(batched, f)
				if !slices.Equal(got, want) {
					t.Errorf("%s: batched\n%q\nalone\n%q", filepath.Base(f.Path), got, want)
				}
				for _, line := range got {
					if strings.HasPrefix(line, "error: ") {
						sawError = true
					} else if !strings.HasPrefix(line, "  fix ") {
						findings++
					}
				}
			}
			if findings < len(files) {
				t.Errorf("%d findings in %d files: the variants each have some", findings, len(files))
			}
			if sawError != tt.brokenIsAnError {
				t.Errorf("an error on %s: %v, want %v", tt.broken, sawError, tt.brokenIsAnError)
			}
			size := cmp.Or(tt.tool.batchSize, defaultBatchSize)
			if n, want := batched.batches.started.Load(), int64((len(files)+size-1)/size); n != want {
				t.Errorf("%d batch processes for %d files, want %d", n, len(files), want)
			}
			if n := len(batched.batches.entries); n != 0 {
				t.Errorf("%d planned files never asked for", n)
			}
		})
	}
}
