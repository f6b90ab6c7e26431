package testsel

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// pyImport is one module a Python file imports: an absolute dotted name, or
// a relative one (level > 0 dots). names are the names of a from-import,
// which may be submodules.
type pyImport struct {
	module string
	level  int
	names  []string
}

// fileImports is what one source file imports, as parsed.
type fileImports struct {
	py []pyImport
	js []string // module specifiers
	// dynamic are the imports whose target is not a literal
	// (importlib.import_module(name), import(`./x/${name}`)).
	dynamic []dynImport
}

// dynImport is a non-literal import: its line, and the literal text its
// target starts with ("./plugins/", "pkg.handlers."), which narrows what it
// can load; "" when nothing is known.
type dynImport struct {
	line   int
	prefix string
}

var pyImportQuery = &compiledQuery{g: grammarPython, source: `
(import_statement) @import
(import_from_statement) @from
(call function: (identifier) @fn arguments: (argument_list . (_) @arg)
  (#any-of? @fn "__import__" "import_module"))
(call function: (attribute object: (identifier) @obj attribute: (identifier) @attr) arguments: (argument_list . (_) @arg)
  (#eq? @obj "importlib") (#eq? @attr "import_module"))
(assignment left: (identifier) @lhs right: (_) @plugins (#eq? @lhs "pytest_plugins"))
`}

func parsePythonImports(src []byte) (fileImports, error) {
	var fi fileImports
	var qerr error
	err := withTree(grammarPython, src, func(root *sitter.Node) {
		qerr = pyImportQuery.eachMatch(root, src, func(_ uint, caps map[string]*sitter.Node) {
			switch {
			case caps["import"] != nil:
				for _, n := range namedChildren(caps["import"]) {
					if n.Kind() == "aliased_import" {
						n = n.ChildByFieldName("name")
					}
					if n != nil && n.Kind() == "dotted_name" {
						fi.py = append(fi.py, pyImport{module: text(n, src)})
					}
				}
			case caps["from"] != nil:
				fi.py = append(fi.py, pyFromImport(caps["from"], src))
			case caps["arg"] != nil:
				if s, ok := pyStringLiteral(caps["arg"], src); ok {
					fi.py = append(fi.py, pyImport{module: s})
				} else {
					fi.dynamic = append(fi.dynamic, dynImport{
						line:   int(caps["arg"].StartPosition().Row) + 1,
						prefix: pyStringPrefix(caps["arg"], src),
					})
				}
			case caps["plugins"] != nil:
				// pytest_plugins = "a.b" or ["a.b", ...] loads modules by name.
				v := caps["plugins"]
				items := []*sitter.Node{v}
				if v.Kind() == "list" || v.Kind() == "tuple" {
					items = namedChildren(v)
				}
				for _, it := range items {
					if s, ok := pyStringLiteral(it, src); ok {
						fi.py = append(fi.py, pyImport{module: s})
					}
				}
			}
		})
	})
	if err == nil {
		err = qerr
	}
	return fi, err
}

func pyFromImport(n *sitter.Node, src []byte) pyImport {
	var imp pyImport
	if mod := n.ChildByFieldName("module_name"); mod != nil {
		if mod.Kind() == "relative_import" {
			for _, c := range namedChildren(mod) {
				switch c.Kind() {
				case "import_prefix":
					imp.level = strings.Count(text(c, src), ".")
				case "dotted_name":
					imp.module = text(c, src)
				}
			}
		} else {
			imp.module = text(mod, src)
		}
	}
	cursor := n.Walk()
	defer cursor.Close()
	for _, c := range n.ChildrenByFieldName("name", cursor) {
		nn := &c
		if nn.Kind() == "aliased_import" {
			nn = nn.ChildByFieldName("name")
		}
		if nn != nil {
			imp.names = append(imp.names, text(nn, src))
		}
	}
	return imp
}

// pyStringPrefix returns the literal start of an f-string, "" otherwise.
func pyStringPrefix(n *sitter.Node, src []byte) string {
	if n == nil || n.Kind() != "string" {
		return ""
	}
	var b strings.Builder
	for _, c := range namedChildren(n) {
		switch c.Kind() {
		case "string_content":
			b.WriteString(text(c, src))
		case "string_start":
		default:
			return b.String()
		}
	}
	return b.String()
}

// pyStringLiteral returns the value of a plain string literal (no
// f-string interpolation, no concatenation).
func pyStringLiteral(n *sitter.Node, src []byte) (string, bool) {
	if n == nil || n.Kind() != "string" {
		return "", false
	}
	var b strings.Builder
	for _, c := range namedChildren(n) {
		switch c.Kind() {
		case "string_content":
			b.WriteString(text(c, src))
		case "string_start", "string_end":
		default: // interpolation, escape sequences
			return "", false
		}
	}
	return b.String(), true
}
