package dangerous

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/aisbx/aisbx/checks"
)

// pyRule handles a call whose callee resolved to a qualified name.
type pyRule func(a *pyFile, c pyCall, args pyArgs, qn string)

var pyCallRules = map[string]pyRule{}

func init() {
	add := func(fn pyRule, names ...string) {
		for _, n := range names {
			pyCallRules[n] = fn
		}
	}
	add(pyCodeExec("py-eval", "eval() of a non-literal expression"), "eval", "builtins.eval")
	add(pyCodeExec("py-exec", "exec() of non-literal code"), "exec", "builtins.exec")
	add(pyCodeExec("py-compile", "compile() of non-literal source"), "compile", "builtins.compile")
	add((*pyFile).subprocess, "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen")
	add((*pyFile).alwaysShell, "subprocess.getoutput", "subprocess.getstatusoutput", "asyncio.create_subprocess_shell",
		"os.system", "os.popen", "os.popen2", "os.popen3", "os.popen4", "commands.getoutput")
	for _, m := range []string{"pickle", "cPickle", "_pickle", "dill"} {
		add(pyDeserialize("py-pickle-load"), m+".load", m+".loads", m+".Unpickler")
	}
	add(pyDeserialize("py-marshal-load"), "marshal.load", "marshal.loads")
	add((*pyFile).shelve, "shelve.open", "shelve.DbfilenameShelf")
	add((*pyFile).yamlLoad, "yaml.load", "yaml.load_all", "yaml.unsafe_load", "yaml.unsafe_load_all", "yaml.full_load", "yaml.full_load_all")
	add((*pyFile).torchLoad, "torch.load")
	add((*pyFile).weakHash, "hashlib.md5", "hashlib.sha1", "hashlib.new")
	add((*pyFile).mktemp, "tempfile.mktemp")
	add((*pyFile).aliasedUnverified, "ssl._create_unverified_context")
	add((*pyFile).osMode, "os.chmod", "os.fchmod", "os.lchmod", "os.mkdir", "os.makedirs")
	add((*pyFile).sqlText, "sqlalchemy.text", "sqlalchemy.sql.text", "sqlalchemy.sql.expression.text")
	for _, fn := range []string{"random", "randint", "randrange", "choice", "choices", "getrandbits", "sample", "uniform", "randbytes", "shuffle"} {
		add((*pyFile).insecureRandom, "random."+fn)
	}
}

// pyMethodRules apply by the callee's last name, whatever the receiver:
// cursors, sessions and tar files arrive as parameters the file never
// shows being created.
var pyMethodRules = map[string]pyRule{
	"execute": (*pyFile).sqlExecute, "executemany": (*pyFile).sqlExecute, "executescript": (*pyFile).sqlExecute,
	"mogrify": (*pyFile).sqlExecute, "raw": (*pyFile).sqlExecute, "read_sql": (*pyFile).sqlExecute, "read_sql_query": (*pyFile).sqlExecute,
	"extractall": (*pyFile).tarExtract,
	"run":        (*pyFile).flaskRun,
	"chmod":      (*pyFile).pathMode, "mkdir": (*pyFile).pathMode,
}

// httpMethods take requests' and httpx's verify= argument.
var httpMethods = map[string]bool{
	"get": true, "post": true, "put": true, "patch": true, "delete": true, "head": true, "options": true,
	"request": true, "stream": true, "Session": true, "Client": true, "AsyncClient": true,
}

func pyCodeExec(id, what string) pyRule {
	return func(a *pyFile, c pyCall, args pyArgs, _ string) {
		if src, ok := args.arg(0, "source"); ok && !a.isConst(src, 0) {
			a.add(id, c.call, what)
		}
	}
}

func (a *pyFile) subprocess(c pyCall, args pyArgs, qn string) {
	shell, ok := args.kw["shell"]
	if !ok || !a.s.truthy(shell) {
		return
	}
	cmd, ok := args.arg(0, "args")
	if !ok {
		return
	}
	shellOff := replaceFix("Set shell=False", int(startOf(shell)), int(endOf(shell)), "False", true)
	switch {
	case kind(cmd) == "list" || kind(cmd) == "tuple":
		if fd := a.add("py-subprocess-shell", c.call, qn+" with shell=True and an argument list (the shell runs only the first item)", shellOff); fd != nil {
			fd.Severity = checks.SeverityWarning
		}
	case a.isConst(cmd, 0):
		var fixes []checks.Fix
		if list, ok := a.argvLiteral(cmd); ok {
			start, end := span(cmd)
			fixes = append(fixes, checks.Fix{
				Title:     "Pass the command as a list with shell=False",
				Edits:     []checks.Edit{{Start: start, End: end, NewText: list}, shellOff.Edits[0]},
				Preferred: true,
			})
		}
		if fd := a.add("py-subprocess-shell", c.call, qn+" with shell=True and a constant command", fixes...); fd != nil {
			fd.Severity = checks.SeverityInfo
		}
	default:
		a.add("py-subprocess-shell", c.call, qn+" with shell=True and a command built at run time")
	}
}

// shellBuiltins run inside the shell; without one there is no program by
// that name to run.
var shellBuiltins = setOf([]string{"cd", "export", "source", ".", "alias", "unalias", "set", "unset", "ulimit", "umask",
	"exit", "exec", "eval", "read", "shift", "trap", "wait", "type", "hash", "times", "return", "break", "continue",
	"readonly", "local", "declare", "typeset", "let", "history", "jobs", "fg", "bg", "builtin", "command"})

// argvLiteral rewrites a plain string literal holding a command without any
// shell syntax as a Python list: "ls -l /tmp" -> ["ls", "-l", "/tmp"]. Only
// then is dropping the shell an exact rewrite: no quoting, expansion,
// redirection, VAR=value prefix or builtin.
func (a *pyFile) argvLiteral(n sitter.Node) (string, bool) {
	cs := namedChildren(n)
	if kind(n) != "string" || len(cs) == 0 {
		return "", false
	}
	start := a.s.text(cs[0]) // string_start: the prefix and quote
	if start != `"` && start != `'` {
		return "", false
	}
	frags, _ := a.stringParts(n)
	text := strings.Join(frags, "")
	words := strings.Fields(text)
	if len(words) == 0 || strings.Contains(words[0], "=") || shellBuiltins[words[0]] {
		return "", false
	}
	for _, r := range text {
		if !(r == ' ' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./:=,@%+-", r)) {
			return "", false
		}
	}
	for i, w := range words {
		words[i] = start + w + start
	}
	return "[" + strings.Join(words, ", ") + "]", true
}

func (a *pyFile) alwaysShell(c pyCall, args pyArgs, qn string) {
	id := "py-subprocess-shell"
	switch {
	case qn == "os.system":
		id = "py-os-system"
	case strings.HasPrefix(qn, "os.popen"):
		id = "py-os-popen"
	}
	cmd, ok := args.arg(0, "cmd")
	if !ok {
		return
	}
	if a.isConst(cmd, 0) {
		if fd := a.add(id, c.call, qn+" runs a constant command through a shell"); fd != nil {
			fd.Severity = checks.SeverityInfo
		}
		return
	}
	a.add(id, c.call, qn+" runs a command built at run time through a shell")
}

func pyDeserialize(id string) pyRule {
	return func(a *pyFile, c pyCall, args pyArgs, qn string) {
		if data, ok := args.arg(0, "file"); ok && a.isConst(data, 0) {
			return
		}
		a.add(id, c.call, qn+" can run arbitrary code while loading")
	}
}

func (a *pyFile) shelve(c pyCall, _ pyArgs, qn string) {
	a.add("py-shelve-open", c.call, qn+" unpickles what it reads")
}

// safeYAMLLoaders are the loaders that build only plain data.
var safeYAMLLoaders = map[string]bool{"SafeLoader": true, "CSafeLoader": true, "BaseLoader": true, "CBaseLoader": true}

var unsafeYAMLLoaders = map[string]string{
	"Loader": "SafeLoader", "UnsafeLoader": "SafeLoader", "FullLoader": "SafeLoader",
	"CLoader": "CSafeLoader", "CUnsafeLoader": "CSafeLoader", "CFullLoader": "CSafeLoader",
}

func (a *pyFile) yamlLoad(c pyCall, args pyArgs, qn string) {
	fn := field(c.call, "function")
	if qn != "yaml.load" && qn != "yaml.load_all" {
		a.add("py-yaml-load", c.call, qn+" constructs arbitrary Python objects")
		return
	}
	loader, ok := args.arg(1, "Loader")
	if !ok {
		if args.splat {
			return
		}
		var fixes []checks.Fix
		if kind(fn) == "attribute" {
			attr := field(fn, "attribute")
			safe := "safe_" + a.s.text(attr)
			fixes = append(fixes, replaceFix("Use yaml."+safe, int(startOf(attr)), int(endOf(attr)), safe, true))
		}
		a.add("py-yaml-load", c.call, qn+" without a Loader", fixes...)
		return
	}
	last := loader
	if kind(loader) == "attribute" {
		last = field(loader, "attribute")
	}
	name := a.s.text(last)
	if q := a.qualify(loader); q != "" {
		name = q[strings.LastIndexByte(q, '.')+1:]
	}
	if safeYAMLLoaders[name] {
		return
	}
	safe, known := unsafeYAMLLoaders[name]
	if !known {
		return // a custom loader: it may well derive from SafeLoader
	}
	var fixes []checks.Fix
	if kind(last) == "identifier" && a.s.text(last) == name {
		fixes = append(fixes, replaceFix("Use "+safe, int(startOf(last)), int(endOf(last)), safe, false))
	}
	a.add("py-yaml-load", c.call, qn+" with Loader="+name, fixes...)
}

func (a *pyFile) torchLoad(c pyCall, args pyArgs, qn string) {
	if w, ok := args.kw["weights_only"]; ok && kind(w) == "true" {
		return
	}
	var fixes []checks.Fix
	if _, ok := args.kw["weights_only"]; !ok && !args.splat {
		fixes = append(fixes, appendArgFix(a.s, c.args, "weights_only=True", "Pass weights_only=True"))
	}
	a.add("py-torch-load", c.call, "torch.load without weights_only=True", fixes...)
}

// appendArgFix inserts an argument before a call's closing parenthesis.
func appendArgFix(s src, args sitter.Node, arg, title string) checks.Fix {
	end := int(endOf(args)) - 1 // the ')'
	inner := strings.TrimRight(string(s[int(startOf(args))+1:end]), " \t\r\n")
	text := arg
	switch {
	case inner == "":
	case strings.HasSuffix(inner, ","):
		text = " " + arg
	default:
		text = ", " + arg
	}
	at := int(startOf(args)) + 1 + len(inner)
	return replaceFix(title, at, at, text, false)
}

func (a *pyFile) weakHash(c pyCall, args pyArgs, qn string) {
	algo := qn[strings.LastIndexByte(qn, '.')+1:]
	if qn == "hashlib.new" {
		name, ok := args.arg(0, "name")
		if !ok || kind(name) != "string" {
			return
		}
		frags, _ := a.stringParts(name)
		algo = strings.ToLower(strings.Join(frags, ""))
		if algo != "md5" && algo != "sha1" && algo != "sha-1" {
			return
		}
	}
	if v, ok := args.kw["usedforsecurity"]; ok && kind(v) == "false" {
		return
	}
	if !anyName(a.contextNames(c.call), passwordName) {
		return
	}
	a.add("py-weak-password-hash", c.call, strings.ToUpper(algo)+" used to hash a password")
}

// aliasedUnverified catches `from ssl import _create_unverified_context as
// u; u()`; the qualified spelling is caught as a reference.
func (a *pyFile) aliasedUnverified(c pyCall, _ pyArgs, qn string) {
	if fn := field(c.call, "function"); kind(fn) == "identifier" && a.s.text(fn) != "_create_unverified_context" {
		a.add("py-ssl-unverified", c.call, qn+" disables certificate checks")
	}
}

func (a *pyFile) mktemp(c pyCall, _ pyArgs, _ string) {
	a.add("py-tempfile-mktemp", c.call, "tempfile.mktemp returns a name another process can create first")
}

func (a *pyFile) osMode(c pyCall, args pyArgs, qn string) {
	if mode, ok := args.arg(1, "mode"); ok {
		a.checkMode(c, mode, qn, qn == "os.mkdir" || qn == "os.makedirs")
	}
}

func (a *pyFile) pathMode(c pyCall, args pyArgs, _ string) {
	if mode, ok := args.arg(0, "mode"); ok {
		name := a.s.text(c.name)
		a.checkMode(c, mode, name, name == "mkdir")
	}
}

// checkMode flags a mode that lets any user write. mkdir's mode passes
// through the process umask (0o777 is its default), so there it is only
// worth a note; chmod applies the mode as written.
func (a *pyFile) checkMode(c pyCall, mode sitter.Node, what string, umask bool) {
	note := func(fd *checks.Finding) {
		if fd != nil && umask {
			fd.Severity = checks.SeverityInfo
		}
	}
	suffix := ""
	if umask {
		suffix = " unless the process umask removes it (it usually does)"
	}
	if kind(mode) == "integer" {
		lit := a.s.text(mode)
		v, ok := parseIntLiteral(lit)
		if !ok || v&worldWritable == 0 {
			return
		}
		start, end := span(mode)
		safer := saferMode(lit, v)
		note(a.add("py-world-writable", c.call, fmt.Sprintf("%s with mode %s lets any user write%s", what, lit, suffix),
			replaceFix("Use mode "+safer, start, end, safer, false)))
		return
	}
	// stat.S_IWOTH / S_IRWXO or'ed together.
	for _, id := range identifiersIn(mode, a.s, pyIdentKinds, pySkipKinds) {
		if id == "S_IWOTH" || id == "S_IRWXO" {
			note(a.add("py-world-writable", c.call, what+" with "+id+" lets any user write"+suffix))
			return
		}
	}
}

func (a *pyFile) insecureRandom(c pyCall, _ pyArgs, qn string) {
	if anyName(a.contextNames(c.call), secretName) {
		a.add("py-insecure-random", c.call, qn+" is predictable and used for a secret")
	}
}

func (a *pyFile) sqlExecute(c pyCall, args pyArgs, _ string) {
	q, ok := args.arg(0, "sql")
	if !ok {
		if q, ok = args.kw["operation"]; !ok {
			return
		}
	}
	if st := a.sql(q, 0); st.sqlish && st.dynamic {
		a.add("py-sql-injection", c.call, a.s.text(c.name)+"() with SQL built from a run-time value")
	}
}

func (a *pyFile) sqlText(c pyCall, args pyArgs, qn string) {
	if q, ok := args.arg(0, "text"); ok {
		if st := a.sql(q, 0); st.sqlish && st.dynamic {
			a.add("py-sql-injection", c.call, qn+"() with SQL built from a run-time value")
		}
	}
}

// tarExtract flags extractall on a tar archive that passes no filter.
func (a *pyFile) tarExtract(c pyCall, args pyArgs, _ string) {
	if _, ok := args.kw["filter"]; ok || args.splat {
		return
	}
	if !a.isTarFile(field(field(c.call, "function"), "object")) {
		return
	}
	a.add("py-tarfile-extractall", c.call, "tarfile extractall() without filter= lets members write outside the target",
		appendArgFix(a.s, c.args, `filter="data"`, `Pass filter="data"`))
}

var tarOpeners = map[string]bool{"tarfile.open": true, "tarfile.TarFile": true, "tarfile.TarFile.open": true,
	"tarfile.TarFile.gzopen": true, "tarfile.TarFile.bz2open": true, "tarfile.TarFile.xzopen": true, "tarfile.TarFile.taropen": true}

// isTarFile reports whether recv is a tarfile: opened by tarfile.open in
// this file, or named like one when it arrives from elsewhere (zipfile's
// extractall already refuses to escape the target).
func (a *pyFile) isTarFile(recv sitter.Node) bool {
	switch kind(recv) {
	case "call":
		return tarOpeners[a.qualify(field(recv, "function"))]
	case "identifier":
		name := a.s.text(recv)
		if bs := a.bindingsBefore(recv); len(bs) > 0 {
			v := bs[len(bs)-1].value
			return kind(v) == "call" && tarOpeners[a.qualify(field(v, "function"))]
		}
		for _, w := range splitWords(name) {
			if w == "tar" || w == "tarball" || w == "tf" || w == "tarfile" {
				return true
			}
		}
	}
	return false
}

func (a *pyFile) flaskRun(c pyCall, args pyArgs, _ string) {
	debug, ok := args.kw["debug"]
	if !ok || !a.s.truthy(debug) || !a.isFlaskApp(field(field(c.call, "function"), "object")) {
		return
	}
	start, end := span(debug)
	a.add("py-flask-debug", c.call, "Flask app.run(debug=True)", replaceFix("Set debug=False", start, end, "False", false))
}

// isFlaskApp reports whether recv is a Flask application: bound to
// flask.Flask(...) here, or called app/application in a file importing flask.
func (a *pyFile) isFlaskApp(recv sitter.Node) bool {
	if kind(recv) != "identifier" {
		return false
	}
	name := a.s.text(recv)
	if bs := a.bindingsBefore(recv); len(bs) > 0 {
		v := bs[len(bs)-1].value
		if kind(v) == "call" && a.qualify(field(v, "function")) == "flask.Flask" {
			return true
		}
	}
	return a.flask && (name == "app" || name == "application")
}
