//go:build dump

package dangerous

import (
	"fmt"
	"os"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

func TestDump(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("F"))
	var l *sitter.Language
	switch os.Getenv("L") {
	case "py":
		l = sitter.NewLanguage(tspy.Language())
	case "js":
		l = sitter.NewLanguage(tsjs.Language())
	case "ts":
		l = sitter.NewLanguage(tsts.LanguageTypescript())
	case "tsx":
		l = sitter.NewLanguage(tsts.LanguageTSX())
	case "sh":
		l = sitter.NewLanguage(tsbash.Language())
	}
	p := sitter.NewParser()
	p.SetLanguage(l)
	tr := p.Parse(src, nil)
	fmt.Println(tr.RootNode().ToSexp())
}
