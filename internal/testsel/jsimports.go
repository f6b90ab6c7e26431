package testsel

import (
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// jsImportPatterns find module specifiers: ES imports and export-from,
// require(...), dynamic import(...) and jest/vitest module mocks. The
// TypeScript grammars add `import x = require("...")`.
const jsImportPatterns = `
(import_statement source: (_) @src)
(export_statement source: (_) @src)
(call_expression function: (identifier) @fn arguments: (arguments . (_) @arg) (#eq? @fn "require"))
(call_expression function: (import) arguments: (arguments . (_) @arg))
(call_expression
  function: (member_expression object: (identifier) @obj property: (property_identifier) @prop)
  arguments: (arguments . (_) @arg)
  (#any-of? @obj "jest" "vi") (#any-of? @prop "mock" "doMock" "requireActual" "importActual"))
`

var jsImportQueries = [grammarCount]*compiledQuery{
	grammarJS:  {g: grammarJS, source: jsImportPatterns},
	grammarTS:  {g: grammarTS, source: jsImportPatterns + "(import_require_clause source: (_) @src)\n"},
	grammarTSX: {g: grammarTSX, source: jsImportPatterns + "(import_require_clause source: (_) @src)\n"},
}

func parseJSImports(g grammar, src []byte) (fileImports, error) {
	var fi fileImports
	var qerr error
	err := withTree(g, src, func(root *sitter.Node) {
		qerr = jsImportQueries[g].eachMatch(root, src, func(_ uint, caps map[string]*sitter.Node) {
			n := caps["src"]
			if n == nil {
				n = caps["arg"]
			}
			if n == nil {
				return
			}
			if s, ok := jsStringLiteral(n, src); ok {
				fi.js = append(fi.js, s)
				return
			}
			// require(x) or import(`./${x}`): the target is known only at run time.
			if caps["src"] == nil {
				fi.dynamic = append(fi.dynamic, dynImport{line: int(n.StartPosition().Row) + 1, prefix: jsTemplatePrefix(n, src)})
			}
		})
	})
	if err == nil {
		err = qerr
	}
	return fi, err
}

// jsTemplatePrefix returns the literal text a template string starts with,
// before its first substitution.
func jsTemplatePrefix(n *sitter.Node, src []byte) string {
	if n.Kind() != "template_string" {
		return ""
	}
	start := n.StartByte() + 1
	for _, c := range namedChildren(n) {
		if c.Kind() == "template_substitution" {
			return jsUnescape(string(src[start:c.StartByte()]))
		}
	}
	return ""
}
