package dangerous

import (
	"bytes"
	"context"
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/aisbx/aisbx/internal/tsfast"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/aisbx/aisbx/checks"
)

// benchInputs are a typical small file per language (its safe corpus file)
// and a ~131 KB one, built by repeating the language's corpus files the way
// a large source file repeats ordinary code.
var benchLangs = []struct {
	name, small, ext string
	dir              string
}{
	{"go", "testdata/go/safe/main.go", ".go", "testdata/go"},
	{"python", "testdata/python/safe.py", ".py", "testdata/python"},
	{"javascript", "testdata/javascript/safe.js", ".js", "testdata/javascript"},
	{"typescript", "testdata/typescript/safe.ts", ".ts", "testdata/typescript"},
	{"shell", "testdata/shell/safe.sh", ".sh", "testdata/shell"},
}

const largeSize = 131 << 10

// processCPU is the CPU time the process has used. The benchmarks report it
// per operation next to wall time: on a shared machine wall time measures
// the neighbours as much as the code.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loop runs op b.N times and reports CPU time per op as cpu-ms/op.
func loop(b *testing.B, op func(i int)) {
	start := processCPU()
	i := 0
	for b.Loop() {
		op(i)
		i++
	}
	if i > 0 {
		b.ReportMetric(float64(processCPU()-start)/float64(i)/1e6, "cpu-ms/op")
	}
}

// largeInput concatenates the language's corpus files, without the ones
// that do not parse, until it reaches size.
func largeInput(tb testing.TB, dir, ext string, size int) []byte {
	tb.Helper()
	var parts [][]byte
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || filepath.Ext(p) != ext || filepath.Base(p) == "broken"+ext || filepath.Base(filepath.Dir(p)) == "broken" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if ext == ".go" && len(parts) > 0 {
			// One package clause and import block is enough.
			if i := bytes.Index(b, []byte("\nfunc ")); i >= 0 {
				b = b[i:]
			}
		}
		parts = append(parts, b)
		return nil
	})
	if err != nil || len(parts) == 0 {
		tb.Fatalf("no %s corpus in %s: %v", ext, dir, err)
	}
	var buf bytes.Buffer
	for i := 0; buf.Len() < size; i++ {
		buf.Write(parts[i%len(parts)])
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// BenchmarkRun checks a file cold, as `aisbxd check` does: no cached tree.
func BenchmarkRun(b *testing.B) {
	c := New(Options{TreeCacheEntries: -1})
	ctx := context.Background()
	for _, l := range benchLangs {
		small, err := os.ReadFile(l.small)
		if err != nil {
			b.Fatal(err)
		}
		large := largeInput(b, l.dir, l.ext, largeSize)
		for _, in := range []struct {
			size string
			body []byte
		}{{fmt.Sprintf("%dKB", (len(small)+512)>>10), small}, {"131KB", large}} {
			f := checks.NewFile("/w", "/w/bench"+l.ext, in.body)
			b.Run(l.name+"/"+in.size, func(b *testing.B) {
				b.SetBytes(int64(len(in.body)))
				b.ReportAllocs()
				loop(b, func(int) {
					if _, err := c.Run(ctx, f); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// BenchmarkIncremental re-checks a large file after a one-line edit, as the
// editor does after a pause in typing: the cached tree makes the reparse
// cover only the edit.
func BenchmarkIncremental(b *testing.B) {
	ctx := context.Background()
	for _, l := range benchLangs {
		large := largeInput(b, l.dir, l.ext, largeSize)
		mid := bytes.IndexByte(large[len(large)/2:], '\n') + len(large)/2 + 1
		variants := [2][]byte{large, append(append(append([]byte{}, large[:mid]...), "\n"...), large[mid:]...)}
		for _, cache := range []int{-1, 0} {
			name := l.name + "/131KB/cached"
			if cache < 0 {
				name = l.name + "/131KB/uncached"
			}
			c := New(Options{TreeCacheEntries: cache})
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(large)))
				loop(b, func(i int) {
					if _, err := c.Run(ctx, checks.NewFile("/w", "/w/edited"+l.ext, variants[i%2])); err != nil {
						b.Fatal(err)
					}
				})
			})
			c.Close()
		}
	}
}

// realFiles are real, typical source files of about 131 KB found on any
// machine that builds this package: the Go toolchain's net/http server and
// the JavaScript grammar's example, parsed as JavaScript and as
// TypeScript; Python's own typing.py when a Python is installed.
func realFiles() []struct{ lang, path string } {
	mod := filepath.Join(build.Default.GOPATH, "pkg", "mod", "github.com", "tree-sitter")
	js := filepath.Join(mod, "tree-sitter-javascript@v0.25.0", "examples", "text-editor-component.js")
	out := []struct{ lang, path string }{
		{"go", filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go")},
		{"javascript", js},
		{"typescript", js},
	}
	if py, _ := filepath.Glob("/usr/lib/python3*/typing.py"); len(py) > 0 {
		out = append(out, struct{ lang, path string }{"python", py[0]})
	}
	return out
}

// BenchmarkRealFiles checks typical large files cold, then again after a
// one-line edit with the previous tree cached, as in the editor.
func BenchmarkRealFiles(b *testing.B) {
	ctx := context.Background()
	exts := map[string]string{"go": ".go", "javascript": ".js", "typescript": ".ts", "python": ".py"}
	for _, rf := range realFiles() {
		body, err := os.ReadFile(rf.path)
		if err != nil {
			b.Logf("skip %s: %v", rf.path, err)
			continue
		}
		name := fmt.Sprintf("%s/%s-%dKB", rf.lang, filepath.Base(rf.path), len(body)>>10)
		path := "/w/real" + exts[rf.lang]
		b.Run(name+"/cold", func(b *testing.B) {
			c := New(Options{TreeCacheEntries: -1})
			b.SetBytes(int64(len(body)))
			loop(b, func(int) {
				if _, err := c.Run(ctx, checks.NewFile("/w", path, body)); err != nil {
					b.Fatal(err)
				}
			})
		})
		mid := bytes.IndexByte(body[len(body)/2:], '\n') + len(body)/2 + 1
		edited := [2][]byte{body, append(append(append([]byte{}, body[:mid]...), "\n"...), body[mid:]...)}
		b.Run(name+"/edited", func(b *testing.B) {
			c := New(Options{})
			defer c.Close()
			b.SetBytes(int64(len(body)))
			loop(b, func(i int) {
				if _, err := c.Run(ctx, checks.NewFile("/w", path, edited[i%2])); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkParseAllocator measures what allocator.go buys: parsing with
// tree-sitter's allocations going straight to libc, against go-tree-sitter's
// default of a Go callback per allocation.
func BenchmarkParseAllocator(b *testing.B) {
	src := largeInput(b, "testdata/python", ".py", largeSize)
	ctx := context.Background()
	parse := func(int) {
		tree, err := pyGrammar.parse(ctx, src, nil, "")
		if err != nil {
			b.Fatal(err)
		}
		tree.Close()
	}
	b.Run("libc", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		loop(b, parse)
	})
	b.Run("go-callbacks", func(b *testing.B) {
		sitter.SetAllocator(nil, nil, nil, nil) // go-tree-sitter's own default
		defer tsfast.UseLibcAllocator()
		b.SetBytes(int64(len(src)))
		loop(b, parse)
	})
}
