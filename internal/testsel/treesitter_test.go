package testsel

import (
	"os"
	"path/filepath"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// TestParseStringMatchesParse: the direct ts_parser_parse_string path gives
// the same tree as go-tree-sitter's own Parse, for every grammar; it relies
// on go-tree-sitter's Parser and Tree layouts, which this guards.
func TestParseStringMatchesParse(t *testing.T) {
	files, _ := filepath.Glob("testdata/discover/*")
	files = append(files, "testdata/workspaces/pyws/tests/test_ops.py", "testdata/workspaces/jsws/src/format.js")
	for _, f := range files {
		name := filepath.Base(f)
		var g grammar
		switch filepath.Ext(name) {
		case ".py":
			g = grammarPython
		case ".ts":
			g = grammarTS
		case ".tsx":
			g = grammarTSX
		case ".js":
			g = grammarJS
		default:
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := sitter.NewParser()
		if err := p.SetLanguage(language(g)); err != nil {
			t.Fatal(err)
		}
		want := p.Parse(src, nil)
		got := parseString(p, src)
		if got == nil || want == nil {
			t.Fatalf("%s: no tree", f)
		}
		if a, b := got.RootNode().ToSexp(), want.RootNode().ToSexp(); a != b {
			t.Errorf("%s: trees differ:\n%s\n%s", f, a, b)
		}
		got.Close()
		want.Close()
		p.Close()
	}
}
