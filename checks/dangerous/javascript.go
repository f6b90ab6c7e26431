package dangerous

import (
	"context"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/aisbx/aisbx/checks"
)

// jsMethodNames are the member calls any JS rule looks at (obj.NAME(...)).
var jsMethodNames = []string{
	"exec", "execSync", "spawn", "spawnSync", "execFile", "execFileSync", "fork",
	"runInThisContext", "runInNewContext", "runInContext", "compileFunction",
	"setTimeout", "setInterval", "write", "writeln", "insertAdjacentHTML", "random", "eval", "Function",
}

var (
	// jsWords are the words whose lines the query runs over, besides the
	// file's import aliases.
	jsWords = setOf(append([]string{"eval", "Function", "setTimeout", "setInterval", "Script", "innerHTML", "outerHTML",
		"rejectUnauthorized", "NODE_TLS_REJECT_UNAUTHORIZED", "dangerouslySetInnerHTML", "document"}, jsMethodNames...))
	jsImportWords = setOf([]string{"require", "import"})
)

const jsQueryCommon = `
(variable_declarator name: (identifier) @decl.name value: (_) @decl.value) @decl
(variable_declarator name: (object_pattern) @decl.pattern value: (_) @decl.value) @decl
(import_statement (import_clause) @import.clause source: (string (string_fragment) @import.module))

(call_expression function: (identifier) @call.name arguments: (arguments) @call.args) @call
(call_expression function: (member_expression property: (property_identifier) @call.name) arguments: (arguments) @call.args
  (#any-of? @call.name %[1]s)) @call
(new_expression constructor: (_) @new.ctor arguments: (arguments) @new.args) @new

(assignment_expression left: (member_expression property: (property_identifier) @set.prop) right: (_) @set.value
  (#any-of? @set.prop "innerHTML" "outerHTML" "rejectUnauthorized" "NODE_TLS_REJECT_UNAUTHORIZED")) @set
(augmented_assignment_expression left: (member_expression property: (property_identifier) @set.prop) right: (_) @set.value
  (#any-of? @set.prop "innerHTML" "outerHTML")) @set
(assignment_expression left: (subscript_expression index: (string (string_fragment) @set.prop)) right: (_) @set.value
  (#any-of? @set.prop "innerHTML" "outerHTML" "NODE_TLS_REJECT_UNAUTHORIZED")) @set

(pair key: (property_identifier) @pair.key value: (_) @pair.value
  (#any-of? @pair.key "rejectUnauthorized" "NODE_TLS_REJECT_UNAUTHORIZED")) @pair
(pair key: (string (string_fragment) @pair.key) value: (_) @pair.value
  (#any-of? @pair.key "rejectUnauthorized" "NODE_TLS_REJECT_UNAUTHORIZED")) @pair
`

const tsQuery = `
(import_statement (import_require_clause (identifier) @require.name source: (string (string_fragment) @require.module)))
`

const jsxQuery = `
(jsx_attribute (property_identifier) @jsx.name (jsx_expression (object) @jsx.value) (#eq? @jsx.name "dangerouslySetInnerHTML")) @jsx
`

func jsQuery(ts, jsx bool) string {
	q := jsQueryCommon
	if ts {
		q += tsQuery
	}
	if jsx {
		q += jsxQuery
	}
	return strings.ReplaceAll(q, "%[1]s", quoteAll(jsMethodNames))
}

var (
	jsGrammar  = newGrammar("javascript", tsjs.Language(), jsQuery(false, true))
	tsGrammar  = newGrammar("typescript", tsts.LanguageTypescript(), jsQuery(true, false))
	tsxGrammar = newGrammar("tsx", tsts.LanguageTSX(), jsQuery(true, true))
)

// jsGrammarFor picks the grammar by extension: .tsx needs the TSX grammar
// (JSX is ambiguous with TypeScript's <T>x casts); JavaScript's grammar
// reads JSX itself.
func jsGrammarFor(f *checks.File) *grammar {
	if f.Language == checks.LangJavaScript {
		return jsGrammar
	}
	if strings.HasSuffix(strings.ToLower(f.Path), ".tsx") {
		return tsxGrammar
	}
	return tsGrammar
}

type jsCall struct {
	call, name, args sitter.Node
	isNew            bool
}

// jsFile is one JS/TS file under analysis: what the query found, plus
// declarations looked up by name when a rule needs them.
type jsFile struct {
	s       src
	r       *report
	idents  *identIndex
	aliases map[string]string // local name -> module path or member ("cp" -> "child_process")
	calls   []jsCall
	sets    [][3]sitter.Node // assignment, property, value
	pairs   [][3]sitter.Node // pair, key, value
	jsx     []sitter.Node    // the {{__html: ...}} objects

	bound map[string]bool          // memo of isBound
	decls map[string][]sitter.Node // memo of declarators
}

func analyzeJS(ctx context.Context, f *checks.File, r *report, trees *treeCache) error {
	g := jsGrammarFor(f)
	tree, err := g.parse(ctx, f.Content, trees, f.Path)
	if err != nil {
		return err
	}
	defer tree.Close()
	a := &jsFile{s: f.Content, r: r, idents: newIdentIndex(tree.RootNode(), f.Content), aliases: map[string]string{},
		bound: map[string]bool{}, decls: map[string][]sitter.Node{}}
	m := g.matcher(tree, f.Content)
	if err := m.runImportsFirst(ctx, jsImportWords, jsWords, a.aliases, a.collect); err != nil {
		return err
	}
	a.check()
	return ctx.Err()
}

// collect records one query match.
func (a *jsFile) collect(caps []capture) {
	var c struct {
		declName, declPattern, declValue, importClause, importModule, requireName, requireModule sitter.Node
		call, callName, callArgs, newExpr, newCtor, newArgs, set, setProp, setValue              sitter.Node
		pair, pairKey, pairValue, jsx, jsxValue                                                  sitter.Node
	}
	for _, cp := range caps {
		n := cp.node
		switch cp.name {
		case "decl.name":
			c.declName = n
		case "decl.pattern":
			c.declPattern = n
		case "decl.value":
			c.declValue = n
		case "import.clause":
			c.importClause = n
		case "import.module":
			c.importModule = n
		case "require.name":
			c.requireName = n
		case "require.module":
			c.requireModule = n
		case "call":
			c.call = n
		case "call.name":
			c.callName = n
		case "call.args":
			c.callArgs = n
		case "new":
			c.newExpr = n
		case "new.ctor":
			c.newCtor = n
		case "new.args":
			c.newArgs = n
		case "set":
			c.set = n
		case "set.prop":
			c.setProp = n
		case "set.value":
			c.setValue = n
		case "pair":
			c.pair = n
		case "pair.key":
			c.pairKey = n
		case "pair.value":
			c.pairValue = n
		case "jsx":
			c.jsx = n
		case "jsx.value":
			c.jsxValue = n
		}
	}
	switch {
	case !isNull(c.declName):
		if mod := a.requirePath(c.declValue); mod != "" {
			a.aliases[a.s.text(c.declName)] = mod
		}
	case !isNull(c.declPattern):
		if mod := a.requirePath(c.declValue); mod != "" {
			a.destructure(c.declPattern, mod)
		}
	case !isNull(c.importClause):
		a.importClause(c.importClause, normalizeModule(a.s.text(c.importModule)))
	case !isNull(c.requireName):
		a.aliases[a.s.text(c.requireName)] = normalizeModule(a.s.text(c.requireModule))
	case !isNull(c.call):
		a.calls = append(a.calls, jsCall{call: c.call, name: c.callName, args: c.callArgs})
	case !isNull(c.newExpr):
		a.calls = append(a.calls, jsCall{call: c.newExpr, name: c.newCtor, args: c.newArgs, isNew: true})
	case !isNull(c.set):
		a.sets = append(a.sets, [3]sitter.Node{c.set, c.setProp, c.setValue})
	case !isNull(c.pair):
		a.pairs = append(a.pairs, [3]sitter.Node{c.pair, c.pairKey, c.pairValue})
	case !isNull(c.jsx):
		a.jsx = append(a.jsx, c.jsxValue)
	}
}

func normalizeModule(m string) string { return strings.TrimPrefix(m, "node:") }

// requirePath returns "mod" for require("mod") and "mod.a.b" for
// require("mod").a.b; "" for anything else.
func (a *jsFile) requirePath(n sitter.Node) string {
	switch kind(n) {
	case "call_expression":
		fn := field(n, "function")
		if kind(fn) != "identifier" || a.s.text(fn) != "require" || a.isBound("require") {
			return ""
		}
		args := namedChildren(field(n, "arguments"))
		if len(args) == 0 || kind(args[0]) != "string" {
			return ""
		}
		return normalizeModule(a.stringValue(args[0]))
	case "member_expression":
		if obj := a.requirePath(field(n, "object")); obj != "" {
			return obj + "." + a.s.text(field(n, "property"))
		}
	case "await_expression", "parenthesized_expression":
		if cs := namedChildren(n); len(cs) == 1 {
			return a.requirePath(cs[0])
		}
	}
	return ""
}

// destructure binds `const {exec, spawn: sp} = require("child_process")`.
func (a *jsFile) destructure(pattern sitter.Node, mod string) {
	for _, p := range namedChildren(pattern) {
		switch kind(p) {
		case "shorthand_property_identifier_pattern":
			name := a.s.text(p)
			a.aliases[name] = mod + "." + name
		case "pair_pattern":
			if v := field(p, "value"); kind(v) == "identifier" {
				a.aliases[a.s.text(v)] = mod + "." + a.s.text(field(p, "key"))
			}
		}
	}
}

// importClause binds `import cp from`, `import * as cp from` and
// `import {exec as run} from`.
func (a *jsFile) importClause(clause sitter.Node, mod string) {
	for _, c := range namedChildren(clause) {
		switch kind(c) {
		case "identifier":
			a.aliases[a.s.text(c)] = mod
		case "namespace_import":
			for _, id := range namedChildren(c) {
				a.aliases[a.s.text(id)] = mod
			}
		case "named_imports":
			for _, spec := range namedChildren(c) {
				name := a.s.text(field(spec, "name"))
				local := name
				if alias := field(spec, "alias"); !isNull(alias) {
					local = a.s.text(alias)
				}
				a.aliases[local] = mod + "." + name
			}
		}
	}
}

// jsGlobals prefix globals without changing what they name.
var jsGlobals = map[string]bool{"window": true, "globalThis": true, "self": true, "global": true}

// qualify resolves a callee to a dotted name: "child_process.exec" for
// cp.exec with cp = require("child_process"), "eval" for window.eval. A
// name the file declares itself resolves to "".
func (a *jsFile) qualify(n sitter.Node) string {
	switch kind(n) {
	case "identifier":
		name := a.s.text(n)
		if q, ok := a.aliases[name]; ok {
			return q
		}
		// Modules count only when imported; globals unless shadowed.
		if !jsGlobalNames[name] || a.isBound(name) {
			return ""
		}
		return name
	case "member_expression", "subscript_expression":
		obj := a.qualify(field(n, "object"))
		if obj == "" {
			return ""
		}
		prop := field(n, "property")
		if kind(n) == "subscript_expression" {
			prop = field(n, "index")
			if kind(prop) != "string" {
				return ""
			}
			return a.join(obj, a.stringValue(prop))
		}
		return a.join(obj, a.s.text(prop))
	case "call_expression":
		return a.requirePath(n)
	case "parenthesized_expression", "as_expression", "non_null_expression", "satisfies_expression", "type_assertion":
		if inner := unwrapTS(n); inner.Id() != n.Id() {
			return a.qualify(inner)
		}
	}
	return ""
}

// unwrapTS strips TypeScript's type-only wrappers (x as T, x!, x satisfies
// T, <T>x) and parentheses, which change nothing at run time.
func unwrapTS(n sitter.Node) sitter.Node {
	for {
		switch kind(n) {
		case "as_expression", "non_null_expression", "satisfies_expression", "type_assertion", "parenthesized_expression":
			cs := namedChildren(n)
			if len(cs) == 0 {
				return n
			}
			if kind(n) == "type_assertion" {
				n = cs[len(cs)-1]
			} else {
				n = cs[0]
			}
		default:
			return n
		}
	}
}

func (a *jsFile) join(obj, prop string) string {
	if jsGlobals[obj] {
		return prop
	}
	return obj + "." + prop
}

// stringValue returns a string literal's text without quotes.
func (a *jsFile) stringValue(n sitter.Node) string {
	var b strings.Builder
	for _, c := range namedChildren(n) {
		b.WriteString(a.s.text(c))
	}
	return b.String()
}

func (a *jsFile) add(id string, n sitter.Node, what string, fixes ...checks.Fix) *checks.Finding {
	start, end := span(n)
	return a.r.add(id, start, end, what, fixes...)
}
