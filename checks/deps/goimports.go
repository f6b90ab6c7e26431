package deps

import (
	"go/parser"
	"go/token"
	"strconv"
)

// importRef is one import in a source file: the imported name and the byte
// range of it inside the file (inside the quotes for string specifiers).
type importRef struct {
	path       string
	start, end int
	// optional marks a Python import guarded by try/except ImportError: the
	// code runs without it, so it is not flagged.
	optional bool
	// names are the names of a Python `from x import a, b`: for namespace
	// packages (google.cloud) they are what a distribution provides.
	names []string
}

// goImports returns the imports of a Go file. go/parser stops after the
// import block; a syntax error further down does not matter, and imports
// parsed before an error are still returned.
func goImports(src []byte) []importRef {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", src, parser.ImportsOnly|parser.SkipObjectResolution)
	if f == nil {
		return nil
	}
	tf := fset.File(f.Pos())
	out := make([]importRef, 0, len(f.Imports))
	for _, spec := range f.Imports {
		if spec.Path == nil {
			continue
		}
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil || p == "" {
			continue
		}
		start := tf.Offset(spec.Path.Pos())
		out = append(out, importRef{path: p, start: start + 1, end: start + len(spec.Path.Value) - 1})
	}
	return out
}
