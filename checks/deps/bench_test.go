package deps

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
	typescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/aisbx/aisbx/checks"
)

// Per-import resolution, warm: what one import costs once the workspace's
// manifests are cached.

func BenchmarkResolveGoImport(b *testing.B) {
	c := New(Options{GoModCache: abs(b, "gomodcache")})
	ge, err := c.goEnvFor(abs(b, "go/app"), abs(b, "go/app"))
	if err != nil || ge == nil {
		b.Fatal(err)
	}
	env := &goRun{goEnv: ge}
	paths := []string{"fmt", "net/http", "github.com/gorilla/mux", "github.com/spf13/cobra/doc", "example.com/app/internal/store", "github.com/hallucinated/fastjson"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		env.resolve(paths[i%len(paths)])
	}
}

func BenchmarkResolvePyImport(b *testing.B) {
	c := New(Options{})
	env := c.pyEnvFor(abs(b, "py/proj/src/mypkg"), abs(b, "py/proj"))
	imps := []importRef{{path: "os"}, {path: "requests"}, {path: "yaml"}, {path: "google.cloud", names: []string{"storage"}}, {path: "six"}, {path: "mypkg.util"}, {path: "fastjsonparse"}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		env.resolveImport(imps[i%len(imps)])
	}
}

func BenchmarkResolveJSImport(b *testing.B) {
	c := New(Options{})
	env := &jsRun{jsEnv: c.jsEnvFor(abs(b, "js/proj/src"), abs(b, "js/proj"))}
	specs := []string{"react", "lodash/merge", "fs", "@acme/ui", "@app/utils", "scheduler", "@babel/runtime/helpers/extends", "react-super-hooks"}
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i], _ = jsPackageName(s)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		env.resolve(specs[i%len(specs)], names[i%len(names)])
	}
}

// Full Check.Run on the fixture files, warm: lexing, the stat checks that
// revalidate the caches, resolution and findings.

func benchRun(b *testing.B, root, rel string) {
	c := New(Options{GoModCache: abs(b, "gomodcache")})
	path := abs(b, rel)
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	f := checks.NewFile(abs(b, root), path, src)
	if _, err := c.Run(context.Background(), f); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.Run(context.Background(), f); err != nil {
			b.Fatal(err)
		}
	}
}

// Typical files: every import resolves.
func BenchmarkRunGoTypical(b *testing.B)     { benchRun(b, "go/app", "go/app/server.go") }
func BenchmarkRunPythonTypical(b *testing.B) { benchRun(b, "py/proj", "py/proj/src/mypkg/service.py") }
func BenchmarkRunTSXTypical(b *testing.B)    { benchRun(b, "js/proj", "js/proj/src/components/List.tsx") }

// The fixtures: about half the imports are hallucinated, each one a
// finding with its near-name search.
func BenchmarkRunGoHallucinated(b *testing.B) { benchRun(b, "go/app", "go/app/main.go") }
func BenchmarkRunPythonHallucinated(b *testing.B) {
	benchRun(b, "py/proj", "py/proj/src/mypkg/core.py")
}
func BenchmarkRunTSXHallucinated(b *testing.B) { benchRun(b, "js/proj", "js/proj/src/App.tsx") }

// BenchmarkRunGoRepo checks every non-test Go file of this package, in this
// repository, against the real module cache: the figure bench/deps.sh puts
// beside `go list` resolving the same imports.
func BenchmarkRunGoRepo(b *testing.B) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	paths, _ := filepath.Glob("*.go")
	var files []*checks.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		ap, _ := filepath.Abs(p)
		src, err := os.ReadFile(ap)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, checks.NewFile(root, ap, src))
	}
	c := New(Options{})
	for _, f := range files {
		if fs, err := c.Run(context.Background(), f); err != nil || len(fs) != 0 {
			b.Fatalf("%s: %v %v", f.Path, err, fs)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			if _, err := c.Run(context.Background(), f); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// The import lexers against a tree-sitter parse of the same 131 KB file
// (the fixture repeated), the alternative they replace.

func bigFile(b *testing.B, rel string) []byte {
	src, err := os.ReadFile(filepath.Join("testdata", rel))
	if err != nil {
		b.Fatal(err)
	}
	return bytes.Repeat(append(src, '\n'), 131*1024/len(src)+1)[:131*1024]
}

func benchLexer(b *testing.B, rel string, lexer func([]byte) []importRef) {
	src := bigFile(b, rel)
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		lexer(src)
	}
}

func BenchmarkPyImportsLexer131K(b *testing.B) {
	benchLexer(b, "py/proj/src/mypkg/core.py", pyImports)
}

func BenchmarkPyImportsTreeSitter131K(b *testing.B) {
	benchTreeSitter(b, sitter.NewLanguage(python.Language()), bigFile(b, "py/proj/src/mypkg/core.py"))
}

func BenchmarkJSImportsLexer131K(b *testing.B) {
	benchLexer(b, "js/proj/src/App.tsx", jsImports)
}

func BenchmarkJSImportsTreeSitter131K(b *testing.B) {
	benchTreeSitter(b, sitter.NewLanguage(typescript.LanguageTSX()), bigFile(b, "js/proj/src/App.tsx"))
}

func benchTreeSitter(b *testing.B, lang *sitter.Language, src []byte) {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(lang); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.Parse(src, nil).Close()
	}
}

// BenchmarkLookalike judges a name never seen before against a popular
// list (the memo is bypassed), as for each new dependency.
func BenchmarkLookalike(b *testing.B) {
	for _, eco := range []ecosystem{ecoPyPI, ecoNPM, ecoGo} {
		b.Run(eco.String(), func(b *testing.B) {
			pop := popularity(eco)
			name := map[ecosystem]string{ecoPyPI: "reqeusts", ecoNPM: "lodahs", ecoGo: "github.com/gorila/mux"}[eco]
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				pop.judged.Delete("1\x00" + popKey(eco, name))
				pop.lookalike(name, 1)
			}
		})
	}
}

// BenchmarkNewDependencies runs the manifest side on an edited package.json
// in a git repository, warm (HEAD's version cached).
func BenchmarkNewDependencies(b *testing.B) {
	requireTool(b, "git")
	dir := b.TempDir()
	mc := manifestCases[0]
	if err := writeFile(filepath.Join(dir, mc.path), mc.committed); err != nil {
		b.Fatal(err)
	}
	gitRun(b, dir, "init", "-q")
	gitRun(b, dir, "add", ".")
	gitRun(b, dir, "commit", "-q", "-m", "base")
	c := New(Options{})
	f := checks.NewFile(dir, filepath.Join(dir, mc.path), []byte(mc.edited))
	if _, err := c.Run(context.Background(), f); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.Run(context.Background(), f); err != nil {
			b.Fatal(err)
		}
	}
}
