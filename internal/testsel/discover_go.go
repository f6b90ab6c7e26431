package testsel

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

func discoverGo(name string, content []byte) ([]Test, error) {
	fset := token.NewFileSet()
	// A file being edited often does not parse; keep what does.
	f, _ := parser.ParseFile(fset, name, content, parser.SkipObjectResolution)
	if f == nil {
		return nil, nil
	}
	tf := fset.File(f.Pos())
	off := func(p token.Pos) int { return tf.Offset(p) }
	var tests []Test
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Body == nil {
			continue
		}
		kind, param := goTestKind(fn)
		if kind == "" {
			continue
		}
		t := Test{
			Lang: LangGo, File: name, Kind: kind, Path: []string{fn.Name.Name},
			Start: off(fn.Pos()), End: off(fn.End()),
			NameStart: off(fn.Name.Pos()), NameEnd: off(fn.Name.End()),
		}
		tests = append(tests, t)
		if param != "" && (kind == KindFunc || kind == KindBenchmark) {
			tests = appendSubtests(tests, fn.Body, param, t.Path, name, off)
		}
	}
	return tests, nil
}

// goTestKind classifies a top-level function by the rules of `go test`
// (name prefix not followed by a lower-case letter, and the signature) and
// returns its *testing.T/B parameter name for finding subtests.
func goTestKind(fn *ast.FuncDecl) (Kind, string) {
	name := fn.Name.Name
	params := fn.Type.Params.List
	switch {
	case isGoTestName(name, "Example"):
		if len(params) == 0 && fn.Type.Results == nil {
			return KindExample, ""
		}
	case name == "TestMain":
		return "", ""
	case isGoTestName(name, "Test"):
		if p, ok := testingParam(params, "T"); ok {
			return KindFunc, p
		}
	case isGoTestName(name, "Benchmark"):
		if p, ok := testingParam(params, "B"); ok {
			return KindBenchmark, p
		}
	case isGoTestName(name, "Fuzz"):
		if p, ok := testingParam(params, "F"); ok {
			return KindFuzz, p
		}
	}
	return "", ""
}

func isGoTestName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

// testingParam accepts a single parameter of type *X.<typ>; X is whatever
// name the file imported "testing" as.
func testingParam(params []*ast.Field, typ string) (string, bool) {
	if len(params) != 1 || len(params[0].Names) > 1 {
		return "", false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return "", false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != typ {
		return "", false
	}
	if len(params[0].Names) == 0 {
		return "_", true
	}
	return params[0].Names[0].Name, true
}

// appendSubtests finds param.Run("literal", func(x *testing.T) {...}) calls
// in body, recursing into each subtest's function with its own parameter.
func appendSubtests(tests []Test, body ast.Node, param string, parent []string, file string, off func(token.Pos) int) []Test {
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 2 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Run" {
			return true
		}
		recv, ok := sel.X.(*ast.Ident)
		if !ok || recv.Name != param {
			return true
		}
		lit, ok := call.Args[0].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		sub, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		path := append(append([]string(nil), parent...), sub)
		tests = append(tests, Test{
			Lang: LangGo, File: file, Kind: KindSubtest, Path: path,
			Start: off(call.Pos()), End: off(call.End()),
			NameStart: off(lit.Pos()), NameEnd: off(lit.End()),
		})
		if fl, ok := call.Args[1].(*ast.FuncLit); ok {
			if p, ok := funcLitParam(fl); ok {
				tests = appendSubtests(tests, fl.Body, p, path, file, off)
			}
		}
		return false // the nested calls belong to the subtest's own parameter
	})
	return tests
}

func funcLitParam(fl *ast.FuncLit) (string, bool) {
	for _, typ := range []string{"T", "B"} {
		if p, ok := testingParam(fl.Type.Params.List, typ); ok {
			return p, true
		}
	}
	return "", false
}

// GoRunPattern returns the -run (or -bench) pattern that selects exactly the
// test named by path, e.g. ^TestX$/^with_space$. Names are rewritten the way
// the testing package rewrites them (spaces to underscores, non-printable
// runes escaped) and quoted for the regexp; a "/" inside a subtest name
// starts a new level, as it does for `go test`.
func GoRunPattern(path []string) string {
	var levels []string
	for _, name := range path {
		for _, elem := range strings.Split(goRewriteName(name), "/") {
			levels = append(levels, "^"+regexp.QuoteMeta(elem)+"$")
		}
	}
	return strings.Join(levels, "/")
}

// goRewriteName mirrors testing.rewrite (src/testing/match.go).
func goRewriteName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case goIsSpace(r):
			b.WriteByte('_')
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// goIsSpace mirrors testing.isSpace, which is not unicode.IsSpace.
func goIsSpace(r rune) bool {
	if r < 0x2000 {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xA0, 0x1680:
			return true
		}
		return false
	}
	if r <= 0x200a {
		return true
	}
	switch r {
	case 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return false
}
