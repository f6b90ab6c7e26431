package testsel

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

func discoverPython(name string, content []byte) ([]Test, error) {
	var tests []Test
	err := withTree(grammarPython, content, func(root *sitter.Node) {
		tests = pythonBlockTests(root, content, name, nil, false)
	})
	return tests, err
}

// pythonBlockTests collects the tests among a module's or class's
// statements. inClass says the block is a test class body, where test
// methods live; at module level pytest collects test functions.
func pythonBlockTests(block *sitter.Node, src []byte, file string, parent []string, inClass bool) []Test {
	var tests []Test
	for _, stmt := range namedChildren(block) {
		outer := stmt
		def := stmt
		if stmt.Kind() == "decorated_definition" {
			def = stmt.ChildByFieldName("definition")
			if def == nil {
				continue
			}
		}
		nameNode := def.ChildByFieldName("name")
		if nameNode == nil {
			continue
		}
		defName := text(nameNode, src)
		t := Test{
			Lang: LangPython, File: file, Path: append(append([]string(nil), parent...), defName),
			Start: int(outer.StartByte()), End: int(outer.EndByte()),
			NameStart: int(nameNode.StartByte()), NameEnd: int(nameNode.EndByte()),
		}
		switch def.Kind() {
		case "function_definition":
			if !strings.HasPrefix(defName, "test") {
				continue
			}
			t.Kind = KindFunc
			if inClass {
				t.Kind = KindMethod
			}
			tests = append(tests, t)
		case "class_definition":
			body := def.ChildByFieldName("body")
			if body == nil || !isPythonTestClass(def, defName, body, src) {
				continue
			}
			t.Kind = KindClass
			tests = append(tests, t)
			tests = append(tests, pythonBlockTests(body, src, file, t.Path, true)...)
		}
	}
	return tests
}

// isPythonTestClass: pytest collects Test* classes without __init__;
// unittest collects TestCase subclasses whatever their name.
func isPythonTestClass(def *sitter.Node, name string, body *sitter.Node, src []byte) bool {
	if supers := def.ChildByFieldName("superclasses"); supers != nil {
		for _, s := range namedChildren(supers) {
			base := text(s, src)
			if i := strings.LastIndexByte(base, '.'); i >= 0 {
				base = base[i+1:]
			}
			if strings.HasSuffix(base, "TestCase") {
				return true
			}
		}
	}
	if !strings.HasPrefix(name, "Test") {
		return false
	}
	for _, stmt := range namedChildren(body) {
		def := stmt
		if stmt.Kind() == "decorated_definition" {
			def = stmt.ChildByFieldName("definition")
		}
		if def != nil && def.Kind() == "function_definition" && text(def.ChildByFieldName("name"), src) == "__init__" {
			return false
		}
	}
	return true
}
