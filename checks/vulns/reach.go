package vulns

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/aisbx/aisbx/internal/vulndb"
)

// Reachability, the cheap way: govulncheck builds a call graph; here each
// of the module's Go files is parsed once (and again only when it
// changes), keeping its imports and the selectors it uses (pkg.Name,
// x.Method). That is enough to say "never imported" or "imported, but
// none of the vulnerable symbols is named", the two cases where lowering
// the severity is safe. Anything unclear counts as reachable.

type reachResult int

const (
	reachUnknown reachResult = iota
	reachNotImported
	reachImported
	reachCalled
)

// maxGoFiles bounds the walk; past it reachability is not attempted.
const maxGoFiles = 20000

type fileFacts struct {
	modTime time.Time
	size    int64
	imports map[string]string          // import path -> explicit local name ("" when none)
	sels    map[string]map[string]bool // identifier -> names selected from it
	allSels map[string]bool            // every selected name, for methods
}

// reachIndex caches file facts across runs.
type reachIndex struct {
	mu    sync.Mutex
	files map[string]*fileFacts
}

func newReachIndex() *reachIndex { return &reachIndex{files: map[string]*fileFacts{}} }

// goUsage is what a module's non-test Go code imports and names.
type goUsage struct {
	unknown bool
	files   []*fileFacts
}

// usage reads the Go files of the module rooted at dir, skipping tests
// (as govulncheck does by default), vendor, testdata and nested modules.
func (ri *reachIndex) usage(ctx context.Context, dir string) (*goUsage, error) {
	u := &goUsage{}
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			name := d.Name()
			if p != dir && (name == "vendor" || name == "testdata" || name == "node_modules" ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if p != dir {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		if n++; n > maxGoFiles {
			return errTooMany
		}
		ff, err := ri.facts(p)
		if err != nil {
			return nil // a file that does not parse cannot call anything
		}
		u.files = append(u.files, ff)
		return nil
	})
	if err == errTooMany {
		return &goUsage{unknown: true}, nil
	}
	if err != nil {
		return nil, err
	}
	return u, nil
}

var errTooMany = fmt.Errorf("more than %d Go files", maxGoFiles)

func (ri *reachIndex) facts(p string) (*fileFacts, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	ri.mu.Lock()
	ff := ri.files[p]
	ri.mu.Unlock()
	if ff != nil && ff.modTime.Equal(fi.ModTime()) && ff.size == fi.Size() {
		return ff, nil
	}
	src, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	ff, err = parseFacts(src)
	if err != nil {
		return nil, err
	}
	ff.modTime, ff.size = fi.ModTime(), fi.Size()
	ri.mu.Lock()
	ri.files[p] = ff
	ri.mu.Unlock()
	return ff, nil
}

func parseFacts(src []byte) (*fileFacts, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	ff := &fileFacts{imports: map[string]string{}, sels: map[string]map[string]bool{}, allSels: map[string]bool{}}
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		}
		ff.imports[p] = name
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		ff.allSels[sel.Sel.Name] = true
		if id, ok := sel.X.(*ast.Ident); ok {
			m := ff.sels[id.Name]
			if m == nil {
				m = map[string]bool{}
				ff.sels[id.Name] = m
			}
			m[sel.Sel.Name] = true
		}
		return true
	})
	return ff, nil
}

// reach says how far the module's code gets to a vulnerability, with a
// phrase naming what it found.
func (u *goUsage) reach(imports []vulndb.GoImport) (reachResult, string) {
	var imported, all []string
	for _, imp := range imports {
		all = append(all, imp.Path)
		var exported []string
		for _, s := range imp.Symbols {
			if symbolExported(s) {
				exported = append(exported, s)
			}
		}
		seen := false
		for _, ff := range u.files {
			local, ok := ff.imports[imp.Path]
			if !ok {
				continue
			}
			seen = true
			if local == "_" {
				continue
			}
			// A whole package is affected, only unexported symbols are
			// listed (reached through others), or a dot import hides the
			// qualifier: importing it is as far as this analysis can see.
			if len(exported) == 0 || local == "." {
				return reachCalled, "package " + imp.Path
			}
			names := packageNameGuesses(imp.Path, local)
			known := false
			for _, n := range names {
				if ff.sels[n] != nil {
					known = true
				}
			}
			for _, s := range exported {
				if typ, method, ok := strings.Cut(s, "."); ok {
					// Methods are reached through values whose type this
					// analysis does not know: any selector of that name
					// counts.
					if ff.allSels[method] {
						return reachCalled, imp.Path + "." + typ + "." + method
					}
					continue
				}
				for _, n := range names {
					if ff.sels[n][s] {
						return reachCalled, imp.Path + "." + s
					}
				}
				if !known && ff.allSels[s] {
					return reachCalled, imp.Path + "." + s
				}
			}
		}
		if seen {
			imported = append(imported, imp.Path)
		}
	}
	if len(imported) == 0 {
		return reachNotImported, strings.Join(all, ", ")
	}
	return reachImported, strings.Join(imported, ", ")
}

// symbolExported reports whether code outside the package can name s
// ("Parse", "Server.ServeConn"; not "inHeadIM" or "http2Server.Serve").
func symbolExported(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" || !unicode.IsUpper([]rune(part)[0]) {
			return false
		}
	}
	return true
}

// packageNameGuesses returns the identifiers code likely uses for an
// imported package: its explicit name, else what the path suggests
// (gopkg.in/yaml.v3 -> yaml, github.com/x/go-cmp -> cmp, .../v2 -> the
// element before).
func packageNameGuesses(importPath, local string) []string {
	if local != "" {
		return []string{local}
	}
	elems := strings.Split(importPath, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	out := []string{last}
	g := last
	if i := strings.Index(g, ".v"); i > 0 {
		g = g[:i]
	}
	g = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(g, "go-"), "-go"), ".go")
	g = strings.ReplaceAll(g, "-", "")
	if g != last {
		out = append(out, g)
	}
	if path.Ext(g) != "" {
		out = append(out, strings.TrimSuffix(g, path.Ext(g)))
	}
	return out
}
