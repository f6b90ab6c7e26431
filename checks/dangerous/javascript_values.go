package dangerous

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// isZero reports whether n is 0 or "0", the values that switch Node's TLS
// verification off.
func (a *jsFile) isZero(n sitter.Node) bool {
	switch kind(n) {
	case "number":
		return a.s.text(n) == "0"
	case "string", "template_string":
		return a.stringValue(n) == "0"
	}
	return false
}

// isLiteral reports whether n is a literal, or is built only from literals
// and consts initialized with literals.
func (a *jsFile) isLiteral(n sitter.Node, depth int) bool {
	if depth > maxDepth {
		return false
	}
	n = unwrapTS(n)
	switch kind(n) {
	case "string", "number", "true", "false", "null", "undefined", "regex":
		return true
	case "template_string":
		for _, c := range namedChildren(n) {
			if kind(c) == "template_substitution" {
				return false
			}
		}
		return true
	case "binary_expression", "parenthesized_expression", "array", "unary_expression":
		for _, c := range namedChildren(n) {
			if !a.isLiteral(c, depth+1) {
				return false
			}
		}
		return true
	case "identifier":
		if a.s.text(n) == "undefined" {
			return true
		}
		v, ok := a.constDecl(n)
		return ok && a.isLiteral(v, depth+1)
	}
	return false
}

// jsGlobalNames are the globals rules resolve by name; a file declaring its
// own eval or setTimeout is not calling the global one.
var jsGlobalNames = setOf([]string{"eval", "Function", "setTimeout", "setInterval", "require", "Math", "document",
	"process", "window", "globalThis", "self", "global"})

// isBound reports whether the file declares name itself: a function,
// variable, class or parameter of that name.
func (a *jsFile) isBound(name string) bool {
	if b, ok := a.bound[name]; ok {
		return b
	}
	b := false
	for _, id := range a.idents.named(name) {
		p := parent(id)
		switch kind(p) {
		case "function_declaration", "generator_function_declaration", "class_declaration", "variable_declarator":
			b = same(field(p, "name"), id)
		case "required_parameter", "optional_parameter":
			b = same(field(p, "pattern"), id)
		case "assignment_pattern":
			b = same(field(p, "left"), id)
		case "arrow_function":
			b = same(field(p, "parameter"), id)
		case "formal_parameters":
			b = true
		}
		if b {
			break
		}
	}
	a.bound[name] = b
	return b
}

// constDecl finds the value of the const an identifier refers to: the last
// `const name = value` before it. let and var may be reassigned anywhere.
func (a *jsFile) constDecl(use sitter.Node) (sitter.Node, bool) {
	var last sitter.Node
	for _, d := range a.declarators(a.s.text(use)) {
		if startOf(d) >= startOf(use) {
			break
		}
		last = d
	}
	if isNull(last) {
		return sitter.Node{}, false
	}
	decl := parent(last)
	if kind(decl) != "lexical_declaration" || !strings.HasPrefix(a.s.text(decl), "const") {
		return sitter.Node{}, false
	}
	v := field(last, "value")
	return v, !isNull(v)
}

// declarators lists the variable declarators of name in document order.
func (a *jsFile) declarators(name string) []sitter.Node {
	if ds, ok := a.decls[name]; ok {
		return ds
	}
	var ds []sitter.Node
	for _, id := range a.idents.named(name) {
		if p := parent(id); kind(p) == "variable_declarator" && same(field(p, "name"), id) {
			ds = append(ds, p)
		}
	}
	a.decls[name] = ds
	return ds
}

// hasString reports whether a + expression concatenates a string.
func (a *jsFile) hasString(n sitter.Node) bool {
	switch kind(n) {
	case "string", "template_string":
		return true
	case "binary_expression", "parenthesized_expression":
		for _, c := range namedChildren(n) {
			if a.hasString(c) {
				return true
			}
		}
	}
	return false
}

// contextNames lists the names Math.random's value flows into: declared
// variables, assignment targets, object keys, callee names, and the
// enclosing function.
func (a *jsFile) contextNames(call sitter.Node) []string {
	var names []string
	prev := call
	for n := parent(call); !isNull(n); prev, n = n, parent(n) {
		switch kind(n) {
		case "variable_declarator":
			names = append(names, a.s.text(field(n, "name")))
		case "assignment_expression", "augmented_assignment_expression":
			names = append(names, a.s.text(field(n, "left")))
		case "pair", "public_field_definition", "field_definition":
			names = append(names, a.s.text(field(n, "key")), a.s.text(field(n, "name")), a.s.text(field(n, "property")))
		case "call_expression":
			if kind(prev) == "arguments" {
				names = append(names, a.s.text(field(n, "function")))
			}
		case "function_declaration", "method_definition", "generator_function_declaration":
			return append(names, a.s.text(field(n, "name")))
		case "class_body", "program":
			return names
		}
	}
	return names
}
