package dangerous

import (
	"bytes"
	"context"
	"go/ast"
	"go/token"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/aisbx/aisbx/checks"
)

// goFile analyzes one Go file's syntax tree. It has no type information (a
// buffer being typed rarely type-checks), so it resolves package names
// through the file's imports and local names through go/parser's object
// resolution: a variable called rand shadows the package.
type goFile struct {
	unit    goUnit
	src     []byte
	r       *report
	imports map[string]string // local name -> import path
	dots    []string          // dot-imported paths
	values  map[*ast.Object][]goValue
	handled map[ast.Expr]bool // selectors already reported as a call
}

// goValue is one assignment to a local variable.
type goValue struct {
	expr      ast.Expr
	augmented bool // x += expr
}

func analyzeGo(ctx context.Context, f *checks.File, r *report) error {
	if !goMayMatch(f.Content) {
		return nil // nothing any Go rule looks at: skip the parse
	}
	// A file with syntax errors still yields a partial tree; a syntax error is
	// for the compiler to report, not this check.
	for _, u := range parseGo(token.NewFileSet(), f.Path, f.Content) {
		if err := ctx.Err(); err != nil {
			return err
		}
		analyzeGoUnit(u, f.Content, r)
	}
	return ctx.Err()
}

func analyzeGoUnit(u goUnit, content []byte, r *report) {
	g := &goFile{unit: u, src: content, r: r,
		imports: map[string]string{}, values: map[*ast.Object][]goValue{}, handled: map[ast.Expr]bool{}}
	for _, spec := range u.file.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		name := defaultImportName(p)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		switch name {
		case "_":
		case ".":
			g.dots = append(g.dots, p)
		default:
			g.imports[name] = p
		}
	}
	var stack []ast.Node
	ast.Inspect(u.file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		g.visit(n, stack)
		return true
	})
}

var versionSuffix = regexp.MustCompile(`^v[0-9]+$`)

// defaultImportName is the name a package is imported under without an
// explicit one: math/rand/v2 is rand, gopkg.in/yaml.v3 is yaml.
func defaultImportName(p string) string {
	name := path.Base(p)
	if versionSuffix.MatchString(name) && path.Dir(p) != "." {
		name = path.Base(path.Dir(p))
	}
	if i := strings.Index(name, ".v"); i > 0 {
		name = name[:i]
	}
	return strings.TrimPrefix(name, "go-")
}

// goRefRules apply wherever the symbol appears, called or passed as a value
// (hmac.New(md5.New, key)).
var goRefRules = map[string]struct{ id, what string }{
	"crypto/md5.New":                                {"go-weak-hash", "MD5 (crypto/md5)"},
	"crypto/md5.Sum":                                {"go-weak-hash", "MD5 (crypto/md5)"},
	"crypto/sha1.New":                               {"go-weak-hash", "SHA-1 (crypto/sha1)"},
	"crypto/sha1.Sum":                               {"go-weak-hash", "SHA-1 (crypto/sha1)"},
	"crypto/des.NewCipher":                          {"go-weak-cipher", "DES (crypto/des)"},
	"crypto/des.NewTripleDESCipher":                 {"go-weak-cipher", "3DES (crypto/des)"},
	"crypto/rc4.NewCipher":                          {"go-weak-cipher", "RC4 (crypto/rc4)"},
	"golang.org/x/crypto/ssh.InsecureIgnoreHostKey": {"go-ssh-insecure-host-key", "ssh.InsecureIgnoreHostKey accepts any server"},
}

var goDotNames = map[string]bool{"os/exec.Command": true, "os/exec.CommandContext": true, "fmt.Sprintf": true}

// mathRandFuncs are math/rand's (and math/rand/v2's) top-level functions.
var mathRandFuncs = setOf([]string{"Int", "Intn", "IntN", "Int31", "Int31n", "Int32", "Int32N", "Int63", "Int63n", "Int64", "Int64N",
	"Uint32", "Uint32N", "Uint64", "Uint64N", "UintN", "Uint", "N", "Float32", "Float64", "Perm", "Shuffle", "Read", "ExpFloat64", "NormFloat64"})

// goModeArg gives the index of the permission argument of calls that take
// one.
var goModeArg = map[string]int{
	"os.WriteFile": 2, "os.Chmod": 1, "os.Mkdir": 1, "os.MkdirAll": 1, "os.OpenFile": 2,
	"io/ioutil.WriteFile": 2, "os.FileMode": 0, "io/fs.FileMode": 0,
}

// sqlMethods are the database methods whose arguments include a query:
// database/sql, sqlx, pgx and gorm.
var sqlMethods = map[string]bool{
	"Query": true, "QueryRow": true, "QueryContext": true, "QueryRowContext": true,
	"Exec": true, "ExecContext": true, "Prepare": true, "PrepareContext": true,
	"Queryx": true, "QueryRowx": true, "MustExec": true, "Select": true, "Get": true,
	"NamedExec": true, "NamedQuery": true, "Raw": true,
}

func (g *goFile) visit(n ast.Node, stack []ast.Node) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		g.recordAssign(n)
		for i, lhs := range n.Lhs {
			if sel, ok := lhs.(*ast.SelectorExpr); ok && sel.Sel.Name == "InsecureSkipVerify" && i < len(n.Rhs) && isTrue(n.Rhs[i]) {
				g.add("go-insecure-skip-verify", n, "InsecureSkipVerify = true accepts any certificate")
			}
		}
	case *ast.ValueSpec:
		for i, name := range n.Names {
			if i < len(n.Values) && name.Obj != nil {
				g.values[name.Obj] = append(g.values[name.Obj], goValue{expr: n.Values[i]})
			}
		}
	case *ast.RangeStmt:
		for _, e := range []ast.Expr{n.Key, n.Value} {
			if id, ok := e.(*ast.Ident); ok && id.Obj != nil {
				g.values[id.Obj] = append(g.values[id.Obj], goValue{expr: id}) // not constant
			}
		}
	case *ast.KeyValueExpr:
		if k, ok := n.Key.(*ast.Ident); ok && k.Name == "InsecureSkipVerify" && isTrue(n.Value) {
			g.add("go-insecure-skip-verify", n, "InsecureSkipVerify: true accepts any certificate")
		}
	case *ast.CallExpr:
		g.visitCall(n, stack)
	case *ast.SelectorExpr:
		if !g.handled[n] {
			if rule, ok := goRefRules[g.resolve(n)]; ok {
				g.add(rule.id, n, rule.what)
			}
		}
	case *ast.Ident:
		if !g.handled[n] && n.Obj == nil && len(g.dots) > 0 {
			if rule, ok := goRefRules[g.resolve(n)]; ok {
				g.add(rule.id, n, rule.what)
			}
		}
	}
}

func (g *goFile) visitCall(call *ast.CallExpr, stack []ast.Node) {
	qn := g.resolve(call.Fun)
	if rule, ok := goRefRules[qn]; ok {
		g.handled[ast.Unparen(call.Fun)] = true
		g.add(rule.id, call, rule.what)
		return
	}
	switch {
	case qn == "os/exec.Command" || qn == "os/exec.CommandContext":
		args := call.Args
		if qn == "os/exec.CommandContext" && len(args) > 0 {
			args = args[1:]
		}
		g.execShell(call, args)
		return
	case (strings.HasPrefix(qn, "math/rand.") || strings.HasPrefix(qn, "math/rand/v2.")) && mathRandFuncs[qn[strings.LastIndexByte(qn, '.')+1:]]:
		g.mathRand(call, qn, stack)
		return
	}
	if i, ok := goModeArg[qn]; ok && i < len(call.Args) {
		g.fileMode(call, call.Args[i], qn)
		return
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || qn != "" {
		return
	}
	switch {
	case sel.Sel.Name == "Chmod" && len(call.Args) == 1:
		g.fileMode(call, call.Args[0], "Chmod")
	case sqlMethods[sel.Sel.Name]:
		for _, arg := range call.Args {
			if st := g.sql(arg, 0); st.sqlish && st.dynamic {
				g.add("go-sql-injection", call, sel.Sel.Name+" with SQL built from a run-time value")
				return
			}
		}
	}
}

func (g *goFile) add(id string, n ast.Node, what string, fixes ...checks.Fix) *checks.Finding {
	start, end := g.offset(n.Pos()), g.offset(n.End())
	if start < 0 || end < start {
		return nil
	}
	return g.r.add(id, start, end, what, fixes...)
}

// offset maps a position to a byte offset in the file; -1 for positions
// outside it (the header of a re-parsed declaration).
func (g *goFile) offset(p token.Pos) int {
	tf := g.unit.tf
	if !p.IsValid() || int(p) < tf.Base() || int(p) > tf.Base()+tf.Size() {
		return -1
	}
	off := tf.Offset(p) + g.unit.shift
	if off < 0 || off > len(g.src) {
		return -1
	}
	return off
}

// resolve names the package-level symbol an expression refers to, as
// "import/path.Name", or "" when it is not one.
func (g *goFile) resolve(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		if !ok || x.Obj != nil {
			return ""
		}
		if p, ok := g.imports[x.Name]; ok {
			return p + "." + e.Sel.Name
		}
	case *ast.Ident:
		if e.Obj != nil {
			return ""
		}
		for _, p := range g.dots {
			qn := p + "." + e.Name
			if _, ok := goRefRules[qn]; ok || goDotNames[qn] || (strings.HasPrefix(p, "math/rand") && mathRandFuncs[e.Name]) {
				return qn
			}
		}
	}
	return ""
}

func (g *goFile) recordAssign(as *ast.AssignStmt) {
	for i, lhs := range as.Lhs {
		id, ok := lhs.(*ast.Ident)
		if !ok || id.Obj == nil {
			continue
		}
		v := goValue{expr: id, augmented: as.Tok != token.ASSIGN && as.Tok != token.DEFINE}
		if len(as.Lhs) == len(as.Rhs) {
			v.expr = as.Rhs[i]
		}
		g.values[id.Obj] = append(g.values[id.Obj], v)
	}
}

func isTrue(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "true" && id.Obj == nil
}

// isConst reports whether e is a constant, or a variable only ever given
// constants. Names this file cannot see (package-level declarations in
// other files) count as constants: guessing otherwise would flag every use
// of a shared const.
func (g *goFile) isConst(e ast.Expr, depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		if e.Obj == nil {
			return true
		}
		switch e.Obj.Kind {
		case ast.Con:
			return true
		case ast.Var:
			vs := g.values[e.Obj]
			if len(vs) == 0 {
				return false // a parameter, or declared without a value
			}
			for _, v := range vs {
				if v.expr == e || !g.isConst(v.expr, depth+1) {
					return false
				}
			}
			return true
		}
		return false
	case *ast.BinaryExpr:
		return g.isConst(e.X, depth+1) && g.isConst(e.Y, depth+1)
	case *ast.UnaryExpr:
		return g.isConst(e.X, depth+1)
	}
	return false
}

// constString returns the value of a string literal or constant.
func (g *goFile) constString(e ast.Expr) (string, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.Ident:
		if e.Obj != nil && e.Obj.Kind == ast.Con {
			if vs, ok := e.Obj.Decl.(*ast.ValueSpec); ok {
				for i, n := range vs.Names {
					if n.Name == e.Name && i < len(vs.Values) {
						return g.constString(vs.Values[i])
					}
				}
			}
		}
	}
	return "", false
}

// goKeywords are texts that every Go rule needs in a file to fire: an
// import path, a field or function name, or (for the SQL rule) a method
// name. A file without any of them cannot match, and most Go files have
// none, so the check skips parsing them: go/parser with object resolution
// is most of this check's cost.
var goKeywords = [][]byte{
	[]byte("os/exec"), []byte("InsecureSkipVerify"), []byte("math/rand"),
	[]byte("crypto/md5"), []byte("crypto/sha1"), []byte("crypto/des"), []byte("crypto/rc4"),
	[]byte("InsecureIgnoreHostKey"),
	[]byte("WriteFile"), []byte("Mkdir"), []byte("OpenFile"), []byte("Chmod"), []byte("FileMode"),
	[]byte("Query"), []byte("Exec"), []byte("Prepare"), []byte("Select"), []byte("Get"), []byte("Raw"),
}

func goMayMatch(src []byte) bool {
	for _, k := range goKeywords {
		if bytes.Contains(src, k) {
			return true
		}
	}
	return false
}
