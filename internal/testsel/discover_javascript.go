package testsel

import (
	"path"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// jsTestFuncs are the callees that declare tests in node:test, jest, vitest
// and mocha, mapped to the kind they declare.
var jsTestFuncs = map[string]Kind{
	"test": KindCase, "it": KindCase, "describe": KindSuite, "suite": KindSuite,
}

// jsTestModifiers are the properties that keep a declaration a declaration
// (test.only, describe.skip, ...). test.each(...) is not one: its names are
// templates filled at run time.
var jsTestModifiers = map[string]bool{
	"only": true, "skip": true, "todo": true, "concurrent": true, "failing": true, "sequential": true,
}

func discoverJS(name string, content []byte) ([]Test, error) {
	g := jsExts[path.Ext(name)]
	var tests []Test
	err := withTree(g, content, func(root *sitter.Node) {
		tests = jsTests(root, content, name, nil)
	})
	return tests, err
}

// jsTests walks n looking for test declarations; the ones found inside a
// suite's callback get the suite's path.
func jsTests(n *sitter.Node, src []byte, file string, parent []string) []Test {
	var tests []Test
	cursor := n.Walk()
	defer cursor.Close()
	var visit func() // depth-first over the cursor's current node
	visit = func() {
		node := cursor.Node()
		if node.Kind() == "call_expression" {
			if t, ok := jsTestCall(node, src, file, parent); ok {
				tests = append(tests, t)
				if args := node.ChildByFieldName("arguments"); args != nil {
					tests = append(tests, jsTests(args, src, file, t.Path)...)
				}
				return
			}
		}
		if cursor.GotoFirstChild() {
			for {
				visit()
				if !cursor.GotoNextSibling() {
					break
				}
			}
			cursor.GotoParent()
		}
	}
	if cursor.GotoFirstChild() {
		for {
			visit()
			if !cursor.GotoNextSibling() {
				break
			}
		}
	}
	return tests
}

func jsTestCall(call *sitter.Node, src []byte, file string, parent []string) (Test, bool) {
	fn := call.ChildByFieldName("function")
	if fn == nil {
		return Test{}, false
	}
	var callee string
	switch fn.Kind() {
	case "identifier":
		callee = text(fn, src)
	case "member_expression":
		obj, prop := fn.ChildByFieldName("object"), fn.ChildByFieldName("property")
		if obj == nil || prop == nil || obj.Kind() != "identifier" || !jsTestModifiers[text(prop, src)] {
			return Test{}, false
		}
		callee = text(obj, src)
	default:
		return Test{}, false
	}
	kind, ok := jsTestFuncs[callee]
	if !ok {
		return Test{}, false
	}
	args := call.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() == 0 {
		return Test{}, false
	}
	first := args.NamedChild(0)
	name, ok := jsStringLiteral(first, src)
	if !ok {
		return Test{}, false
	}
	return Test{
		Lang: LangJS, File: file, Kind: kind, Path: append(append([]string(nil), parent...), name),
		Start: int(call.StartByte()), End: int(call.EndByte()),
		NameStart: int(first.StartByte()), NameEnd: int(first.EndByte()),
	}, true
}

// jsStringLiteral returns the value of a string literal or of a template
// literal without substitutions.
func jsStringLiteral(n *sitter.Node, src []byte) (string, bool) {
	if n == nil {
		return "", false
	}
	switch n.Kind() {
	case "string":
		raw := text(n, src)
		if len(raw) < 2 {
			return "", false
		}
		return jsUnescape(raw[1 : len(raw)-1]), true
	case "template_string":
		for _, c := range namedChildren(n) {
			if c.Kind() == "template_substitution" {
				return "", false
			}
		}
		raw := text(n, src)
		if len(raw) < 2 {
			return "", false
		}
		return jsUnescape(raw[1 : len(raw)-1]), true
	}
	return "", false
}

// jsUnescape decodes the escapes a test name plausibly holds; anything it
// does not know is kept as written.
func jsUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case 'u':
			if i+4 < len(s) {
				if r, err := strconv.ParseUint(s[i+1:i+5], 16, 32); err == nil {
					b.WriteRune(rune(r))
					i += 4
					continue
				}
			}
			b.WriteString(`\u`)
		case '\n':
			// line continuation
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
