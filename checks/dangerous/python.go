package dangerous

import (
	"context"
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/aisbx/aisbx/checks"
)

// pyCallNames are the last names of the calls any Python rule looks at.
var pyCallNames = []string{
	"eval", "exec", "compile",
	"run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput", "create_subprocess_shell",
	"system", "popen", "popen2", "popen3", "popen4",
	"load", "loads", "Unpickler", "open", "load_all", "unsafe_load", "unsafe_load_all", "full_load", "full_load_all",
	"get", "post", "put", "patch", "delete", "head", "options", "request", "stream", "Session", "Client", "AsyncClient",
	"execute", "executemany", "executescript", "mogrify", "raw", "text", "read_sql", "read_sql_query",
	"md5", "sha1", "new", "mktemp", "extractall", "_create_unverified_context",
	"chmod", "fchmod", "lchmod", "mkdir", "makedirs",
	"random", "randint", "randrange", "choice", "choices", "getrandbits", "sample", "uniform", "randbytes", "shuffle",
}

var (
	pyCallNameSet = setOf(pyCallNames)
	// pyWords are the words whose lines the query runs over, besides the
	// file's import aliases.
	pyWords       = setOf(append([]string{"verify", "check_hostname", "debug"}, pyCallNames...))
	pyImportWords = setOf([]string{"import"})
)

// pyQuery selects the shapes the rules start from. Bare calls are not
// filtered by name, since an import alias can rename anything.
var pyQuery = fmt.Sprintf(`
(import_statement name: (dotted_name) @import.module)
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias))
(import_from_statement module_name: (dotted_name) @from.module name: (dotted_name) @from.name)
(import_from_statement module_name: (dotted_name) @from.module name: (aliased_import name: (dotted_name) @from.name alias: (identifier) @from.alias))
(import_from_statement module_name: (dotted_name) @star.module (wildcard_import))

(call function: (identifier) @call.name arguments: (argument_list) @call.args) @call
(call function: (attribute attribute: (identifier) @call.name) arguments: (argument_list) @call.args
  (#any-of? @call.name %s)) @call

(assignment left: (attribute attribute: (identifier) @setattr.name) right: (_) @setattr.value
  (#any-of? @setattr.name "verify" "check_hostname" "debug")) @setattr
`, quoteAll(pyCallNames))

var pyGrammar = newGrammar("python", tspython.Language(), pyQuery)

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = `"` + n + `"`
	}
	return strings.Join(q, " ")
}

type pyCall struct {
	call, name, args sitter.Node
}

// pyFile is one Python file under analysis: what the query found, plus
// bindings looked up by name when a rule needs them.
type pyFile struct {
	s        src
	r        *report
	idents   *identIndex
	aliases  map[string]string // local name -> qualified name ("sp" -> "subprocess")
	stars    []string          // modules imported with *
	flask    bool              // the file imports flask
	calls    []pyCall
	setattrs [][3]sitter.Node // assignment, attribute name, value

	bound   map[string]bool       // memo of isBound
	assigns map[string][]pyAssign // memo of assignments
}

func analyzePython(ctx context.Context, f *checks.File, r *report, trees *treeCache) error {
	tree, err := pyGrammar.parse(ctx, f.Content, trees, f.Path)
	if err != nil {
		return err
	}
	defer tree.Close()
	a := &pyFile{s: f.Content, r: r, idents: newIdentIndex(tree.RootNode(), f.Content), aliases: map[string]string{},
		bound: map[string]bool{}, assigns: map[string][]pyAssign{}}
	m := pyGrammar.matcher(tree, f.Content)
	if err := m.runImportsFirst(ctx, pyImportWords, pyWords, a.aliases, a.collect); err != nil {
		return err
	}
	a.check()
	a.sslRefs()
	return ctx.Err()
}

// collect records one query match.
func (a *pyFile) collect(caps []capture) {
	var c struct {
		importModule, importAlias, fromModule, fromName, fromAlias, starModule sitter.Node
		call, callName, callArgs, setattr, setattrName, setattrValue           sitter.Node
	}
	for _, cp := range caps {
		n := cp.node
		switch cp.name {
		case "import.module":
			c.importModule = n
		case "import.alias":
			c.importAlias = n
		case "from.module":
			c.fromModule = n
		case "from.name":
			c.fromName = n
		case "from.alias":
			c.fromAlias = n
		case "star.module":
			c.starModule = n
		case "call":
			c.call = n
		case "call.name":
			c.callName = n
		case "call.args":
			c.callArgs = n
		case "setattr":
			c.setattr = n
		case "setattr.name":
			c.setattrName = n
		case "setattr.value":
			c.setattrValue = n
		}
	}
	switch {
	case !isNull(c.importModule):
		mod := a.s.text(c.importModule)
		if !isNull(c.importAlias) {
			a.aliases[a.s.text(c.importAlias)] = mod
		} else {
			root, _, _ := strings.Cut(mod, ".")
			a.aliases[root] = root
		}
		a.noteModule(mod)
	case !isNull(c.fromModule):
		mod, name := a.s.text(c.fromModule), a.s.text(c.fromName)
		local := name
		if !isNull(c.fromAlias) {
			local = a.s.text(c.fromAlias)
		}
		a.aliases[local] = mod + "." + name
		a.noteModule(mod)
	case !isNull(c.starModule):
		a.stars = append(a.stars, a.s.text(c.starModule))
		a.noteModule(a.s.text(c.starModule))
	case !isNull(c.call):
		a.calls = append(a.calls, pyCall{call: c.call, name: c.callName, args: c.callArgs})
	case !isNull(c.setattr):
		a.setattrs = append(a.setattrs, [3]sitter.Node{c.setattr, c.setattrName, c.setattrValue})
	}
}

func (a *pyFile) noteModule(mod string) {
	if mod == "flask" || strings.HasPrefix(mod, "flask.") {
		a.flask = true
	}
}

func (a *pyFile) check() {
	for _, c := range a.calls {
		name := a.s.text(c.name)
		fn := field(c.call, "function")
		if kind(fn) == "identifier" && !pyCallNameSet[name] && a.aliases[name] == "" {
			continue
		}
		qn := a.qualify(fn)
		args := a.arguments(c.args)
		if rule, ok := pyCallRules[qn]; ok {
			rule(a, c, args, qn)
		} else if rule, ok := pyMethodRules[name]; ok && kind(fn) == "attribute" {
			rule(a, c, args, qn)
		}
		if httpMethods[name] {
			if v, ok := args.kw["verify"]; ok && kind(v) == "false" {
				a.add("py-requests-verify-false", c.call, name+"(verify=False) skips certificate checks")
			}
		}
	}
	for _, sa := range a.setattrs {
		assign, name, value := sa[0], a.s.text(sa[1]), sa[2]
		switch {
		case name == "verify" && kind(value) == "false":
			a.add("py-requests-verify-false", assign, "session.verify = False skips certificate checks")
		case name == "check_hostname" && kind(value) == "false":
			a.add("py-ssl-unverified", assign, "check_hostname = False accepts any server name")
		case name == "debug" && a.s.truthy(value) && a.isFlaskApp(field(field(assign, "left"), "object")):
			a.add("py-flask-debug", assign, "Flask app.debug = True")
		}
	}
}

// sslRefs flags ssl.CERT_NONE and ssl._create_unverified_context wherever
// they appear, called or not: rare words, looked up in the text and
// confirmed in the tree.
func (a *pyFile) sslRefs() {
	names := map[string]string{"CERT_NONE": "CERT_NONE", "_create_unverified_context": "_create_unverified_context"}
	for local, q := range a.aliases {
		if q == "ssl.CERT_NONE" || q == "ssl._create_unverified_context" {
			names[local] = q[len("ssl."):]
		}
	}
	for word, real := range names {
		for _, id := range a.idents.named(word) {
			p := parent(id)
			switch {
			case kind(p) == "attribute" && same(field(p, "attribute"), id):
				// Comparing with CERT_NONE reads the setting; it does not make it.
				if a.qualify(field(p, "object")) == "ssl" && kind(parent(p)) != "comparison_operator" {
					a.add("py-ssl-unverified", p, "ssl."+real+" disables certificate checks")
				}
			case kind(p) == "attribute" || kind(p) == "dotted_name" || kind(p) == "aliased_import" || kind(p) == "keyword_argument" && same(field(p, "name"), id):
			case a.aliases[word] == "ssl."+real && kind(p) != "comparison_operator":
				if kind(p) == "call" && word != real {
					continue // an aliased call is reported by the call rule
				}
				a.add("py-ssl-unverified", id, real+" disables certificate checks")
			}
		}
	}
}

func (a *pyFile) add(id string, n sitter.Node, what string, fixes ...checks.Fix) *checks.Finding {
	start, end := span(n)
	return a.r.add(id, start, end, what, fixes...)
}

// qualify resolves a callee or value to a dotted name through the file's
// imports: `sp.run` with `import subprocess as sp` is "subprocess.run".
// A name the file binds itself resolves to "", so a local `eval` or a
// variable called `yaml` fools no rule. An unimported, unbound module name
// resolves to itself: pasted snippets often lack their imports.
func (a *pyFile) qualify(n sitter.Node) string {
	switch kind(n) {
	case "identifier":
		name := a.s.text(n)
		if q, ok := a.aliases[name]; ok {
			return q
		}
		if a.isBound(name) {
			return ""
		}
		for _, m := range a.stars {
			if _, ok := pyCallRules[m+"."+name]; ok {
				return m + "." + name
			}
		}
		return name
	case "attribute":
		obj := a.qualify(field(n, "object"))
		if obj == "" {
			return ""
		}
		return obj + "." + a.s.text(field(n, "attribute"))
	}
	return ""
}

type pyArgs struct {
	pos   []sitter.Node
	kw    map[string]sitter.Node // keyword -> value
	splat bool                   // *args or **kwargs: the call may pass anything
}

func (a *pyFile) arguments(list sitter.Node) pyArgs {
	args := pyArgs{kw: map[string]sitter.Node{}}
	for _, n := range namedChildren(list) {
		switch kind(n) {
		case "keyword_argument":
			args.kw[a.s.text(field(n, "name"))] = field(n, "value")
		case "list_splat", "dictionary_splat":
			args.splat = true
		default:
			args.pos = append(args.pos, n)
		}
	}
	return args
}

// arg returns positional argument i, or the keyword argument kw.
func (p pyArgs) arg(i int, kw string) (sitter.Node, bool) {
	if i < len(p.pos) {
		return p.pos[i], true
	}
	n, ok := p.kw[kw]
	return n, ok
}
