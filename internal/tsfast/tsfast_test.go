package tsfast

import (
	"os"
	"path/filepath"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// TestParseStringMatchesParse: the direct path gives the same tree as
// go-tree-sitter's own Parse for every grammar aisbx uses, on real files of
// this repository's test data.
func TestParseStringMatchesParse(t *testing.T) {
	if !LibcAllocator {
		t.Fatal("tree-sitter's allocator was not replaced")
	}
	grammars := map[string]*sitter.Language{
		".py":  sitter.NewLanguage(tspython.Language()),
		".js":  sitter.NewLanguage(tsjs.Language()),
		".ts":  sitter.NewLanguage(tsts.LanguageTypescript()),
		".tsx": sitter.NewLanguage(tsts.LanguageTSX()),
		".sh":  sitter.NewLanguage(tsbash.Language()),
	}
	var files []string
	for _, pattern := range []string{"../testsel/testdata/discover/*", "../testsel/testdata/workspaces/*/*/*", "../../checks/dangerous/testdata/*/*"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	parsed := 0
	for _, f := range files {
		lang, ok := grammars[filepath.Ext(f)]
		if !ok {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		p := sitter.NewParser()
		if err := p.SetLanguage(lang); err != nil {
			t.Fatal(err)
		}
		want := p.Parse(src, nil)
		got := ParseString(p, src)
		if got == nil || want == nil {
			t.Fatalf("%s: no tree", f)
		}
		if a, b := got.RootNode().ToSexp(), want.RootNode().ToSexp(); a != b {
			t.Errorf("%s: trees differ", f)
		}
		got.Close()
		want.Close()
		p.Close()
		parsed++
	}
	if parsed < 10 {
		t.Fatalf("only %d files parsed: test data moved?", parsed)
	}
}
