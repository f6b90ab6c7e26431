package dangerous

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
)

// goUnit is a parsed piece of a Go file. shift maps its offsets back to the
// file: file offset = unit offset + shift.
type goUnit struct {
	file  *ast.File
	tf    *token.File
	shift int
}

// topLevelDecl finds where a top-level declaration starts: gofmt'd code
// puts them at column 0.
var topLevelDecl = regexp.MustCompile(`(?m)^(func|type|var|const)\b`)

// parseGo parses a Go file. go/parser recovers poorly: one broken
// parameter list can swallow every declaration after it. So when the whole
// file fails, each top-level declaration is parsed again on its own, behind
// the file's package clause and imports, and a half-typed function hides
// nothing else.
func parseGo(fset *token.FileSet, path string, src []byte) []goUnit {
	file, err := parser.ParseFile(fset, path, src, 0)
	if file == nil {
		return nil
	}
	whole := goUnit{file: file, tf: fset.File(file.Pos())}
	if err == nil || whole.tf == nil {
		return []goUnit{whole}
	}
	var header bytes.Buffer
	header.WriteString("package p\n")
	body := 0 // where declarations after the imports begin
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			break
		}
		start, end := whole.tf.Offset(gd.Pos()), whole.tf.Offset(gd.End())
		if start < 0 || end > len(src) || start > end {
			break
		}
		header.Write(src[start:end])
		header.WriteByte('\n')
		body = end
	}
	bounds := topLevelDecl.FindAllIndex(src[body:], -1)
	if len(bounds) == 0 {
		return []goUnit{whole}
	}
	units := make([]goUnit, 0, len(bounds))
	for i, b := range bounds {
		start, end := body+b[0], len(src)
		if i+1 < len(bounds) {
			end = body + bounds[i+1][0]
		}
		chunk := make([]byte, 0, header.Len()+end-start)
		chunk = append(append(chunk, header.Bytes()...), src[start:end]...)
		f, _ := parser.ParseFile(fset, path, chunk, 0)
		if f == nil {
			continue
		}
		if tf := fset.File(f.Pos()); tf != nil {
			units = append(units, goUnit{file: f, tf: tf, shift: start - header.Len()})
		}
	}
	return units
}
