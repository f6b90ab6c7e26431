package dangerous

import (
	"go/ast"
	"go/token"
	"path"
	"regexp"
	"strings"

	"github.com/aisbx/aisbx/checks"
)

var (
	shellNames = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "ash": true,
		"fish": true, "cmd": true, "cmd.exe": true, "powershell": true, "powershell.exe": true, "pwsh": true}
	shellCommandFlag = regexp.MustCompile(`^(-[a-z]*c|/[cC]|-[cC]ommand)$`)
)

// execShell flags exec.Command("sh", "-c", x) with a non-constant x.
func (g *goFile) execShell(call *ast.CallExpr, args []ast.Expr) {
	if len(args) < 3 || call.Ellipsis.IsValid() {
		return
	}
	prog, ok := g.constString(args[0])
	if !ok || !shellNames[path.Base(strings.ReplaceAll(prog, `\`, "/"))] {
		return
	}
	if flag, ok := g.constString(args[1]); !ok || !shellCommandFlag.MatchString(flag) {
		return
	}
	if !g.isConst(args[2], 0) {
		g.add("go-exec-shell", call, "exec.Command(\""+prog+"\", \"-c\", ...) with a script built at run time")
	}
}

// mathRand flags math/rand when its value feeds something secret, and
// math/rand's Read always: it is the lookalike of crypto/rand.Read.
func (g *goFile) mathRand(call *ast.CallExpr, qn string, stack []ast.Node) {
	name := qn[strings.LastIndexByte(qn, '.')+1:]
	if name == "Read" {
		g.add("go-math-rand-secret", call, "math/rand.Read fills bytes predictably (did you mean crypto/rand?)")
		return
	}
	if anyName(g.contextNames(call, stack), secretName) {
		g.add("go-math-rand-secret", call, "math/rand."+name+" is predictable and used for a secret")
	}
}

// contextNames lists the names a call's value flows into: assigned
// variables, struct fields, enclosing callees and the enclosing function,
// plus identifiers in its arguments.
func (g *goFile) contextNames(call *ast.CallExpr, stack []ast.Node) []string {
	var names []string
	for _, a := range call.Args {
		ast.Inspect(a, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				names = append(names, id.Name)
			}
			return true
		})
	}
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				names = append(names, exprName(l))
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				names = append(names, id.Name)
			}
		case *ast.KeyValueExpr:
			names = append(names, exprName(n.Key))
		case *ast.CallExpr:
			names = append(names, exprName(n.Fun))
		case *ast.FuncDecl:
			return append(names, n.Name.Name)
		}
	}
	return names
}

// exprName gives the last name of an identifier or selector: Token for
// s.Token.
func exprName(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.IndexExpr:
		return exprName(e.X)
	}
	return ""
}

// umaskFiltered are the calls whose mode the process umask trims: Go's
// own idiom is WriteFile(..., 0666) and MkdirAll(..., 0777), leaving the
// decision to the umask. Only Chmod applies a mode as written.
var umaskFiltered = map[string]bool{"os.WriteFile": true, "os.Mkdir": true, "os.MkdirAll": true, "os.OpenFile": true,
	"io/ioutil.WriteFile": true, "os.FileMode": true, "io/fs.FileMode": true}

// fileMode flags permission literals that let any user write. A literal
// masked with & or &^ is a mask, not a mode.
func (g *goFile) fileMode(call *ast.CallExpr, mode ast.Expr, what string) {
	var lits []*ast.BasicLit
	ast.Inspect(mode, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			return n.Op != token.AND && n.Op != token.AND_NOT
		case *ast.BasicLit:
			if n.Kind == token.INT {
				lits = append(lits, n)
			}
		}
		return true
	})
	for _, lit := range lits {
		v, ok := parseIntLiteral(lit.Value)
		if !ok || v&worldWritable == 0 {
			continue
		}
		var fixes []checks.Fix
		if len(lits) == 1 && ast.Unparen(mode) == lit {
			safer := saferMode(lit.Value, v)
			fixes = append(fixes, replaceFix("Use mode "+safer, g.offset(lit.Pos()), g.offset(lit.End()), safer, false))
		}
		msg := strings.TrimPrefix(what, "io/") + " with mode " + lit.Value + " lets any user write"
		if umaskFiltered[what] {
			msg += " unless the process umask removes it (it usually does)"
		}
		if fd := g.add("go-world-writable", call, msg, fixes...); fd != nil && umaskFiltered[what] {
			fd.Severity = checks.SeverityInfo
		}
		return
	}
}

// sql describes how an expression builds a string, for the SQL rule.
func (g *goFile) sql(e ast.Expr, depth int) sqlState {
	if depth > maxDepth {
		return sqlState{}
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		if s, ok := g.constString(e); ok {
			return sqlState{sqlish: looksLikeSQL([]string{s})}
		}
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return sqlState{}
		}
		st := g.sql(e.X, depth+1).or(g.sql(e.Y, depth+1))
		st.dynamic = st.dynamic || !g.isConst(e.X, depth+1) || !g.isConst(e.Y, depth+1)
		return st
	case *ast.CallExpr:
		if g.resolve(e.Fun) != "fmt.Sprintf" || len(e.Args) == 0 {
			return sqlState{}
		}
		format, ok := g.constString(e.Args[0])
		if !ok {
			return sqlState{}
		}
		st := sqlState{sqlish: looksLikeSQL([]string{format})}
		verbs, rest := formatVerbs(format), e.Args[1:]
		for i, arg := range rest {
			// Verbs and arguments pair up unless the format uses * or [n];
			// then any text verb with any variable counts.
			text := i < len(verbs) && textVerb(verbs[i])
			if len(verbs) != len(rest) {
				text = strings.ContainsAny(string(verbs), "svq")
			}
			if text && !g.isConst(arg, depth+1) {
				st.dynamic = true
			}
		}
		return st
	case *ast.Ident:
		if e.Obj == nil || e.Obj.Kind != ast.Var {
			return sqlState{}
		}
		var st sqlState
		for _, v := range g.values[e.Obj] {
			if v.expr == e {
				continue
			}
			st = st.or(g.sql(v.expr, depth+1))
			if v.augmented && !g.isConst(v.expr, depth+1) {
				st.dynamic = true
			}
		}
		return st
	}
	return sqlState{}
}
