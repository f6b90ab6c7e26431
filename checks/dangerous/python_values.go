package dangerous

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// truthy reports whether n is a literal that Python treats as true.
func (s src) truthy(n sitter.Node) bool {
	switch kind(n) {
	case "true":
		return true
	case "integer":
		v, ok := parseIntLiteral(s.text(n))
		return ok && v != 0
	}
	return false
}

// pyAssign is one binding of a name: `x = v`, `x += v` or `with v as x`.
type pyAssign struct {
	at        uint
	scope     uint // start of the enclosing function + 1; 0 for the module
	value     sitter.Node
	augmented bool
}

// scopeOf returns the start of the innermost function around n, plus one;
// 0 at module level.
func scopeOf(n sitter.Node) uint {
	for p := parent(n); !isNull(p); p = parent(p) {
		if kind(p) == "function_definition" || kind(p) == "lambda" {
			return startOf(p) + 1
		}
	}
	return 0
}

// isBound reports whether the file binds name itself, other than by an
// import: a def or class (methods aside), a parameter, an assignment or a
// loop variable. It shadows the builtin or module of that name.
func (a *pyFile) isBound(name string) bool {
	if b, ok := a.bound[name]; ok {
		return b
	}
	b := false
	for _, id := range a.idents.named(name) {
		p := parent(id)
		switch kind(p) {
		case "function_definition":
			b = same(field(p, "name"), id) && !isMethod(p)
		case "class_definition", "default_parameter", "typed_default_parameter":
			b = same(field(p, "name"), id)
		case "parameters", "lambda_parameters", "typed_parameter", "as_pattern_target", "pattern_list", "tuple_pattern", "list_splat_pattern", "dictionary_splat_pattern":
			b = true
		case "assignment", "augmented_assignment", "for_statement":
			b = same(field(p, "left"), id)
		}
		if b {
			break
		}
	}
	a.bound[name] = b
	return b
}

// isMethod reports whether a function definition sits in a class body.
func isMethod(fn sitter.Node) bool {
	p := parent(fn)
	if kind(p) == "decorated_definition" {
		p = parent(p)
	}
	return kind(p) == "block" && kind(parent(p)) == "class_definition"
}

// assignments lists the bindings of name in document order.
func (a *pyFile) assignments(name string) []pyAssign {
	if as, ok := a.assigns[name]; ok {
		return as
	}
	var as []pyAssign
	for _, id := range a.idents.named(name) {
		p := parent(id)
		b := pyAssign{at: startOf(id)}
		switch kind(p) {
		case "assignment", "augmented_assignment":
			if !same(field(p, "left"), id) {
				continue
			}
			b.value, b.augmented = field(p, "right"), kind(p) == "augmented_assignment"
		case "as_pattern_target": // with v as name
			cs := namedChildren(parent(p))
			if len(cs) == 0 {
				continue
			}
			b.value = cs[0]
		default:
			continue
		}
		b.scope = scopeOf(id)
		as = append(as, b)
	}
	a.assigns[name] = as
	return as
}

// bindingsBefore returns the bindings that reach the use of an identifier:
// those earlier in the same function, or, when the function never assigns
// the name, the module's (Python's own local-or-global rule).
func (a *pyFile) bindingsBefore(use sitter.Node) []pyAssign {
	all := a.assignments(a.s.text(use))
	if len(all) == 0 {
		return nil
	}
	scope, pos := scopeOf(use), startOf(use)
	var local, global []pyAssign
	localAnywhere := false
	for _, as := range all {
		switch {
		case as.scope == scope:
			localAnywhere = true
			if as.at < pos {
				local = append(local, as)
			}
		case as.scope == 0:
			global = append(global, as)
		}
	}
	if scope != 0 && !localAnywhere {
		return global
	}
	return local
}

const maxDepth = 4

// isConst reports whether an expression is a literal, or built only from
// literals and names bound only to literals.
func (a *pyFile) isConst(n sitter.Node, depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch kind(n) {
	case "string":
		for _, c := range namedChildren(n) {
			if kind(c) == "interpolation" {
				return false
			}
		}
		return true
	case "integer", "float", "true", "false", "none", "ellipsis":
		return true
	case "concatenated_string", "tuple", "list", "set", "parenthesized_expression", "unary_operator", "binary_operator", "expression_list":
		for _, c := range namedChildren(n) {
			if !a.isConst(c, depth+1) {
				return false
			}
		}
		return true
	case "identifier":
		bs := a.bindingsBefore(n)
		if len(bs) == 0 {
			return false
		}
		for _, b := range bs {
			if !a.isConst(b.value, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// stringParts returns a string literal's text pieces and its interpolated
// expressions.
func (a *pyFile) stringParts(n sitter.Node) (frags []string, interps []sitter.Node) {
	for _, c := range namedChildren(n) {
		switch kind(c) {
		case "string_content":
			frags = append(frags, a.s.text(c))
		case "interpolation":
			interps = append(interps, field(c, "expression"))
		}
	}
	return frags, interps
}

// sql describes how an expression builds a string, for the SQL rule.
func (a *pyFile) sql(n sitter.Node, depth int) sqlState {
	if depth > maxDepth {
		return sqlState{}
	}
	switch kind(n) {
	case "string":
		frags, interps := a.stringParts(n)
		st := sqlState{sqlish: looksLikeSQL(frags)}
		for _, e := range interps {
			if !a.isConst(e, depth+1) {
				st.dynamic = true
			}
		}
		return st
	case "concatenated_string", "parenthesized_expression":
		var st sqlState
		for _, c := range namedChildren(n) {
			st = st.or(a.sql(c, depth+1))
		}
		return st
	case "binary_operator":
		left, right := field(n, "left"), field(n, "right")
		l := a.sql(left, depth+1)
		switch a.s.text(field(n, "operator")) {
		case "+":
			r := a.sql(right, depth+1)
			st := l.or(r)
			st.dynamic = st.dynamic || !a.isConst(left, depth+1) || !a.isConst(right, depth+1)
			return st
		case "%":
			if !a.isConst(right, depth+1) && a.textFormat(left) {
				l.dynamic = true
			}
			return l
		}
	case "call":
		fn := field(n, "function")
		if kind(fn) == "attribute" && a.s.text(field(fn, "attribute")) == "format" {
			st := a.sql(field(fn, "object"), depth+1)
			for _, arg := range namedChildren(field(n, "arguments")) {
				if kind(arg) == "keyword_argument" {
					arg = field(arg, "value")
				}
				if !a.isConst(arg, depth+1) {
					st.dynamic = true
				}
			}
			return st
		}
	case "identifier":
		var st sqlState
		for _, b := range a.bindingsBefore(n) {
			st = st.or(a.sql(b.value, depth+1))
			if b.augmented && !a.isConst(b.value, depth+1) {
				st.dynamic = true
			}
		}
		return st
	}
	return sqlState{}
}

// textFormat reports whether a %-format has a conversion that splices text
// (%s, %r); "%d" % x cannot inject. Unknown formats count as text.
func (a *pyFile) textFormat(format sitter.Node) bool {
	if kind(format) != "string" {
		return true
	}
	frags, _ := a.stringParts(format)
	for _, v := range formatVerbs(strings.Join(frags, "")) {
		if textVerb(v) {
			return true
		}
	}
	return false
}

// contextNames lists the names a call's value flows into or comes from:
// assignment targets, keyword names, callee names of enclosing calls, the
// enclosing function, and identifiers in its arguments.
func (a *pyFile) contextNames(call sitter.Node) []string {
	names := identifiersIn(field(call, "arguments"), a.s, pyIdentKinds, pySkipKinds)
	prev := call
	for n := parent(call); !isNull(n); prev, n = n, parent(n) {
		switch kind(n) {
		case "assignment", "augmented_assignment":
			names = append(names, identifiersIn(field(n, "left"), a.s, pyIdentKinds, pySkipKinds)...)
		case "keyword_argument":
			names = append(names, a.s.text(field(n, "name")))
		case "pair":
			names = append(names, a.s.text(field(n, "key")))
		case "call":
			if kind(prev) == "argument_list" {
				names = append(names, a.s.text(field(n, "function")))
			}
		case "function_definition":
			return append(names, a.s.text(field(n, "name")))
		case "class_definition", "module":
			return names
		}
	}
	return names
}

var (
	pyIdentKinds = map[string]bool{"identifier": true}
	pySkipKinds  = map[string]bool{"string": true, "concatenated_string": true}
)
