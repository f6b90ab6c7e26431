package secrets

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"

	"github.com/aisbx/aisbx/checks"
)

// fixer builds "read it from the environment" quick fixes for one file. It
// parses a Go file at most once, and only when a finding needs a fix.
type fixer struct {
	f      *checks.File
	fk     fileKind
	goDone bool
	goFile *ast.File
	goSet  *token.FileSet
}

func newFixer(f *checks.File, fk fileKind) *fixer { return &fixer{f: f, fk: fk} }

// fix replaces the literal holding the secret with an environment lookup
// in the file's language, adding the import the lookup needs. There is no
// fix when the literal holds more than the secret ("Bearer " + token in one
// string), in a Go constant, or in formats that cannot read the environment
// (JSON, .env files, Dockerfiles).
func (x *fixer) fix(m match, env string) (checks.Fix, bool) {
	if !m.whole {
		return checks.Fix{}, false
	}
	var lookup string
	var extra []checks.Edit
	quoted := m.quote != 0
	switch x.fk.lang {
	case checks.LangGo:
		if !quoted {
			return checks.Fix{}, false
		}
		name, edit, ok := x.goImportOS(m.litStart)
		if !ok {
			return checks.Fix{}, false
		}
		lookup = name + `.Getenv(` + strconv.Quote(env) + `)`
		if edit != nil {
			extra = append(extra, *edit)
		}
	case checks.LangPython:
		if !quoted {
			return checks.Fix{}, false
		}
		lookup = `os.environ[` + strconv.Quote(env) + `]`
		if strings.ContainsAny(m.prefix, "bB") {
			lookup += ".encode()"
		}
		if e, needed := pythonImportOS(x.f.Content); needed {
			extra = append(extra, e)
		}
	case checks.LangJavaScript, checks.LangTypeScript:
		if !quoted {
			return checks.Fix{}, false
		}
		lookup = "process.env." + env
	case checks.LangShell:
		lookup = `"${` + env + `:?}"`
	case checks.LangYAML:
		lookup = "${" + env + "}"
		if strings.Contains(x.f.Rel(), ".github/workflows/") {
			lookup = "${{ secrets." + env + " }}"
		}
	default:
		if !quoted {
			return checks.Fix{}, false
		}
		switch strings.ToLower(path.Ext(x.fk.base)) {
		case ".rb":
			lookup = `ENV.fetch(` + strconv.Quote(env) + `)`
		case ".php":
			lookup = `getenv('` + env + `')`
		case ".java", ".kt", ".kts", ".scala", ".groovy":
			lookup = `System.getenv(` + strconv.Quote(env) + `)`
		case ".cs":
			lookup = `Environment.GetEnvironmentVariable(` + strconv.Quote(env) + `)`
		default:
			return checks.Fix{}, false
		}
	}
	edits := append(extra, checks.Edit{Start: m.litStart, End: m.litEnd, NewText: lookup})
	return checks.Fix{Title: "Read " + env + " from the environment", Edits: edits, Preferred: true}, true
}

// goImportOS returns the name "os" is imported as, and the edit that adds
// the import when it is missing. It refuses (ok false) when the imports do
// not parse or the literal is in a constant, where a call cannot go. Only
// the import block is parsed: a full parse of a large file costs more than
// the whole scan.
func (x *fixer) goImportOS(lit int) (name string, edit *checks.Edit, ok bool) {
	if inGoConst(x.f.Content, lit) {
		return "", nil, false
	}
	if !x.goDone {
		x.goDone = true
		x.goSet = token.NewFileSet()
		if f, err := parser.ParseFile(x.goSet, "", x.f.Content, parser.ImportsOnly|parser.SkipObjectResolution); err == nil {
			x.goFile = f
		}
	}
	file := x.goFile
	if file == nil {
		return "", nil, false
	}
	tf := x.goSet.File(file.Pos())
	if tf == nil {
		return "", nil, false
	}
	for _, im := range file.Imports {
		if im.Path.Value == `"os"` {
			if im.Name == nil {
				return "os", nil, true
			}
			if im.Name.Name != "_" && im.Name.Name != "." {
				return im.Name.Name, nil, true
			}
		}
	}
	for _, d := range file.Decls {
		g, isGen := d.(*ast.GenDecl)
		if !isGen || g.Tok != token.IMPORT {
			continue
		}
		if g.Lparen.IsValid() {
			at := tf.Offset(g.Lparen) + 1
			return "os", &checks.Edit{Start: at, End: at, NewText: "\n\t\"os\""}, true
		}
		// import "fmt" -> import ( "fmt" "os" ), as goimports would write it.
		spec := g.Specs[0].(*ast.ImportSpec)
		text := string(x.f.Content[tf.Offset(spec.Pos()):tf.Offset(spec.End())])
		return "os", &checks.Edit{Start: tf.Offset(g.Pos()), End: tf.Offset(g.End()), NewText: "import (\n\t" + text + "\n\t\"os\"\n)"}, true
	}
	at := tf.Offset(file.Name.End())
	return "os", &checks.Edit{Start: at, End: at, NewText: "\n\nimport \"os\""}, true
}

// inGoConst reports whether the literal at lit sits in a const declaration:
// on a "const" line, or inside a "const (" block (gofmt-formatted code).
func inGoConst(b []byte, lit int) bool {
	end := lit
	for n := 0; n < 2000 && end > 0; n++ {
		start := bytes.LastIndexByte(b[:end], '\n') + 1
		line := bytes.TrimSpace(b[start:end])
		switch {
		case bytes.HasPrefix(line, []byte("const ")) || bytes.HasPrefix(line, []byte("const(")):
			return true
		case n > 0 && (bytes.Equal(line, []byte(")")) || bytes.Equal(line, []byte("}")) ||
			bytes.HasPrefix(line, []byte("var ")) || bytes.HasPrefix(line, []byte("func ")) ||
			bytes.HasPrefix(line, []byte("type ")) || bytes.HasPrefix(line, []byte("import ")) ||
			bytes.HasSuffix(line, []byte("{"))):
			return false
		}
		if start == 0 {
			return false
		}
		end = start - 1
	}
	return false
}

// pythonImportOS returns the edit that adds "import os" when the module
// does not import it: after the shebang, comments, docstring and
// __future__ imports, which must stay first.
func pythonImportOS(b []byte) (checks.Edit, bool) {
	lines := bytes.SplitAfter(b, []byte("\n"))
	for _, l := range lines {
		t := bytes.TrimSpace(l)
		if bytes.Equal(t, []byte("import os")) || bytes.HasPrefix(t, []byte("import os ")) || bytes.HasPrefix(t, []byte("import os,")) {
			return checks.Edit{}, false
		}
		if bytes.HasPrefix(t, []byte("import ")) {
			for _, part := range bytes.Split(t[len("import "):], []byte(",")) {
				if bytes.Equal(bytes.TrimSpace(part), []byte("os")) {
					return checks.Edit{}, false
				}
			}
		}
	}
	off := 0
	inDoc := ""
	for _, l := range lines {
		t := string(bytes.TrimSpace(l))
		switch {
		case inDoc != "":
			if strings.Contains(t, inDoc) {
				inDoc = ""
			}
		case t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "from __future__"):
		case strings.HasPrefix(t, `"""`) || strings.HasPrefix(t, `'''`):
			q := t[:3]
			if !strings.Contains(t[3:], q) {
				inDoc = q
			}
		default:
			return checks.Edit{Start: off, End: off, NewText: "import os\n"}, true
		}
		off += len(l)
	}
	nl := ""
	if off > 0 && b[off-1] != '\n' {
		nl = "\n"
	}
	return checks.Edit{Start: off, End: off, NewText: nl + "import os\n"}, true
}

// genericNames say nothing about which secret a variable holds; a provider
// token assigned to one is named after the provider instead (GITHUB_TOKEN).
var genericNames = map[string]bool{
	"key": true, "value": true, "val": true, "data": true, "token": true, "secret": true, "password": true,
	"pass": true, "pwd": true, "apikey": true, "auth": true, "s": true, "x": true, "v": true, "str": true,
	"url": true, "uri": true, "dsn": true, "conn": true, "creds": true, "credentials": true, "t": true,
}

// envName is the environment variable a fix reads: the assigned name in
// UPPER_SNAKE case when it says something, else the provider's usual one.
func envName(m match) string {
	name := m.name
	if i := strings.LastIndexAny(name, ".>"); i >= 0 {
		name = name[i+1:]
	}
	words := nameWords(name)
	fallback := m.rule.env
	if m.env != "" {
		fallback = m.env
	}
	if len(words) == 0 || len(words) == 1 && genericNames[words[0]] && m.rule.id != ruleGenericSecret {
		return fallback
	}
	if c := words[0][0]; c < 'a' || c > 'z' {
		return fallback
	}
	return strings.ToUpper(strings.Join(words, "_"))
}
