package secrets

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/aisbx/aisbx/checks"
)

// FuzzRun: no input makes the check panic, report a range outside the file,
// offer an edit outside it, or print the secret it found.
func FuzzRun(f *testing.F) {
	_, files := setFiles(f, "corpus")
	for rel, data := range files {
		f.Add(rel, data)
	}
	c := mustCheck(f, DefaultOptions())
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		file := checks.NewFile("/w", filepath.Join("/w", filepath.Base("x"+name)), data)
		fs, err := c.Run(context.Background(), file)
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range fs {
			if fd.Start < 0 || fd.End > len(data) || fd.Start >= fd.End {
				t.Fatalf("range %d-%d in %d bytes", fd.Start, fd.End, len(data))
			}
			if leaks(fd.Message, string(data[fd.Start:fd.End])) {
				t.Fatalf("message leaks: %q", fd.Message)
			}
			for _, fx := range fd.Fixes {
				for _, e := range fx.Edits {
					if e.Start < 0 || e.End > len(data) || e.Start > e.End {
						t.Fatalf("edit %+v outside %d bytes", e, len(data))
					}
				}
			}
		}
		RedactText(data)
	})
}

// TestConcurrentRuns shares one Check between goroutines (run with -race).
func TestConcurrentRuns(t *testing.T) {
	c := mustCheck(t, DefaultOptions())
	var wg sync.WaitGroup
	for _, set := range []string{"corpus", "gitleaks-workspace", "fixes"} {
		root, files := setFiles(t, set)
		for rel, data := range files {
			wg.Go(func() {
				f := checks.NewFile(root, filepath.Join(root, rel), data)
				if _, err := c.Run(context.Background(), f); err != nil {
					t.Error(err)
				}
				RedactText(data)
			})
		}
	}
	wg.Wait()
}
