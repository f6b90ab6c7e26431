package dangerous

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/textpos"
)

func TestRealScan(t *testing.T) {
	dir := os.Getenv("D")
	if dir == "" {
		t.Skip()
	}
	c := New(Options{TreeCacheEntries: -1})
	counts := map[string]int{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, "/testdata/") || strings.Contains(p, "node_modules/.cache") {
			return nil
		}
		f := checks.NewFile("", p, nil)
		if f.Language == checks.LangText || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, _ := os.ReadFile(p)
		f = checks.NewFile("", p, b)
		if !c.Applies(f) {
			return nil
		}
		fs, err := c.Run(context.Background(), f)
		if err != nil {
			t.Errorf("%s: %v", p, err)
		}
		idx := textpos.NewIndex(b)
		for _, x := range fs {
			counts[x.Rule]++
			line := strings.TrimSpace(string(idx.Line(idx.LineOf(x.Start))))
			if len(line) > 110 {
				line = line[:110]
			}
			fmt.Printf("%s:%d: %s [%s] %s\n", p, idx.LineOf(x.Start)+1, x.Rule, x.Severity, line)
		}
		return nil
	})
	fmt.Println(counts)
}
