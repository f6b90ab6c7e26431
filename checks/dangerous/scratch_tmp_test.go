package dangerous

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/textpos"
)

func TestScratch(t *testing.T) {
	path := os.Getenv("F")
	if path == "" {
		t.Skip()
	}
	b, _ := os.ReadFile(path)
	f := checks.NewFile("", path, b)
	fs, err := New(Options{}).Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	idx := textpos.NewIndex(b)
	for _, x := range fs {
		fmt.Printf("%d: %s %s %q [%s] fixes=%d\n", idx.LineOf(x.Start)+1, x.Rule, x.Severity, string(b[x.Start:x.End]), x.Message, len(x.Fixes))
		for _, fx := range x.Fixes {
			fmt.Printf("    fix %q %+v\n", fx.Title, fx.Edits)
		}
	}
}
