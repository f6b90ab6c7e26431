package deps

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
	typescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// The import lexers are checked against tree-sitter's grammars on the
// fixtures and on real code found on this machine (the Python standard
// library, npm's own sources): both must find the same imports at the same
// offsets.

func walk(n *sitter.Node, fn func(*sitter.Node)) {
	fn(n)
	for i := uint(0); i < n.ChildCount(); i++ {
		walk(n.Child(i), fn)
	}
}

func parseTS(t testing.TB, lang *sitter.Language, src []byte) *sitter.Tree {
	t.Helper()
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(lang); err != nil {
		t.Fatal(err)
	}
	return p.Parse(src, nil)
}

// treeSitterPyImports lists absolute imports as "offset:module".
func treeSitterPyImports(t testing.TB, src []byte) ([]string, bool) {
	tree := parseTS(t, sitter.NewLanguage(python.Language()), src)
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		return nil, false
	}
	var out []string
	add := func(n *sitter.Node) {
		name := strings.Join(strings.Fields(strings.ReplaceAll(n.Utf8Text(src), "\\\n", "")), "")
		out = append(out, strconv.Itoa(int(n.StartByte()))+":"+name)
	}
	walk(root, func(n *sitter.Node) {
		switch n.Kind() {
		case "import_statement":
			for i := uint(0); i < n.NamedChildCount(); i++ {
				c := n.NamedChild(i)
				if c.Kind() == "aliased_import" {
					c = c.ChildByFieldName("name")
				}
				if c != nil && c.Kind() == "dotted_name" {
					add(c)
				}
			}
		case "import_from_statement":
			if m := n.ChildByFieldName("module_name"); m != nil && m.Kind() == "dotted_name" {
				add(m)
			}
		case "future_import_statement":
			for i := uint(0); i < n.ChildCount(); i++ {
				if c := n.Child(i); c.Kind() == "__future__" {
					add(c)
				}
			}
		}
	})
	sort.Strings(out)
	return out, true
}

// treeSitterJSImports lists specifiers as "offset:specifier".
func treeSitterJSImports(t testing.TB, lang *sitter.Language, src []byte) ([]string, bool) {
	tree := parseTS(t, lang, src)
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		return nil, false
	}
	var out []string
	literal := func(s *sitter.Node) {
		if s == nil || (s.Kind() != "string" && s.Kind() != "template_string") || s.NamedChildCount() != 1 {
			return
		}
		if f := s.NamedChild(0); f.Kind() == "string_fragment" {
			out = append(out, strconv.Itoa(int(f.StartByte()))+":"+f.Utf8Text(src))
		}
	}
	walk(root, func(n *sitter.Node) {
		switch n.Kind() {
		case "import_statement", "export_statement", "import_require_clause":
			literal(n.ChildByFieldName("source"))
		case "call_expression":
			fn := n.ChildByFieldName("function")
			args := n.ChildByFieldName("arguments")
			if fn == nil || args == nil || args.NamedChildCount() == 0 {
				return
			}
			if fn.Kind() == "import" || (fn.Kind() == "identifier" && fn.Utf8Text(src) == "require") {
				for i := uint(0); i < args.NamedChildCount(); i++ {
					if a := args.NamedChild(i); a.Kind() != "comment" {
						literal(a)
						break
					}
				}
			}
		}
	})
	sort.Strings(out)
	return out, true
}

func refs(imps []importRef) []string {
	out := make([]string, 0, len(imps))
	for _, r := range imps {
		out = append(out, strconv.Itoa(r.start)+":"+r.path)
	}
	sort.Strings(out)
	return out
}

// corpus lists fixture files with one of exts, plus up to max files from
// dir (when it exists on this machine).
func corpus(t testing.TB, exts []string, dir string, max int) []string {
	var files []string
	match := func(p string) bool {
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				return true
			}
		}
		return false
	}
	_ = filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && match(p) {
			files = append(files, p)
		}
		return nil
	})
	if dir == "" {
		return files
	}
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || n >= max {
			return filepath.SkipDir
		}
		if d.IsDir() && (d.Name() == "test" || d.Name() == "tests" || d.Name() == "site-packages") {
			return filepath.SkipDir
		}
		if fi, err := d.Info(); err == nil && !d.IsDir() && match(p) && fi.Size() < 64<<10 {
			files = append(files, p)
			n++
		}
		return nil
	})
	return files
}

func pythonStdlibDir() string {
	out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// agree compares a lexer with a tree-sitter oracle on every file; files
// the grammar cannot parse cleanly are left out.
func agree(t *testing.T, files []string, lexer func([]byte) []importRef, oracle func(path string, src []byte) ([]string, bool), min int) {
	t.Helper()
	compared := 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := oracle(p, src)
		if !ok {
			continue
		}
		compared++
		if got := refs(lexer(src)); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s:\n lexer:       %v\n tree-sitter: %v", p, got, want)
		}
	}
	if compared < min {
		t.Fatalf("only %d files compared", compared)
	}
	t.Logf("%d files compared", compared)
}

func TestPythonLexerAgreesWithTreeSitter(t *testing.T) {
	files := corpus(t, []string{".py"}, pythonStdlibDir(), 120)
	agree(t, files, pyImports, func(_ string, src []byte) ([]string, bool) { return treeSitterPyImports(t, src) }, 5)
}

func TestJSLexerAgreesWithTreeSitter(t *testing.T) {
	files := corpus(t, []string{".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx"}, "/usr/lib/node_modules/npm", 200)
	agree(t, files, jsImports, func(p string, src []byte) ([]string, bool) {
		lang := sitter.NewLanguage(javascript.Language())
		switch filepath.Ext(p) {
		case ".ts":
			lang = sitter.NewLanguage(typescript.LanguageTypescript())
		case ".tsx":
			lang = sitter.NewLanguage(typescript.LanguageTSX())
		}
		return treeSitterJSImports(t, lang, src)
	}, 3)
}
