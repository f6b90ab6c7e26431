package dangerous

import (
	"bytes"
	"context"
	"path"
	"regexp"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"

	"github.com/aisbx/aisbx/checks"
)

const shQuery = `
(command name: (command_name) @cmd.name) @cmd
(pipeline) @pipe
(variable_assignment name: (variable_name) @var.name value: (_) @var.value (#eq? @var.name "NODE_TLS_REJECT_UNAUTHORIZED")) @var
`

var shGrammar = newGrammar("bash", tsbash.Language(), shQuery)

var (
	downloaders = setOf([]string{"curl", "wget", "fetch", "http", "https", "xh"})
	shells      = setOf([]string{"sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish"})
	// interpreters run a script read from stdin when given no file.
	interpreters = setOf([]string{"python", "python2", "python3", "perl", "ruby", "node", "php"})
	// wrappers run the command that follows their own options.
	wrappers = setOf([]string{"sudo", "doas", "env", "command", "exec", "nohup", "time", "nice", "stdbuf"})
	// wrapperValueFlags take a value in the next argument.
	wrapperValueFlags = setOf([]string{"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-n", "-o", "-i", "-e"})
	// shWords are the words whose lines the query runs over.
	shWords       = setOf([]string{"curl", "wget", "fetch", "xh", "http", "https", "rm", "chmod", "source", "eval", "NODE_TLS_REJECT_UNAUTHORIZED"})
	shInteresting = setOf([]string{"curl", "wget", "rm", "chmod", "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish",
		"source", ".", "eval", "sudo", "doas", "env", "command", "exec", "nohup", "time", "nice", "stdbuf"})
)

type shFile struct {
	s src
	r *report
}

func analyzeShell(ctx context.Context, f *checks.File, r *report, trees *treeCache) error {
	tree, err := shGrammar.parse(ctx, f.Content, trees, f.Path)
	if err != nil {
		return err
	}
	defer tree.Close()
	a := &shFile{s: f.Content, r: r}
	ws, ok := lineWindows(f.Content, shWords)
	return shGrammar.matcher(tree, f.Content).run(ctx, ws, !ok, func(caps []capture) {
		var cmd, cmdName, pipe, assign, value sitter.Node
		for _, c := range caps {
			switch c.name {
			case "cmd":
				cmd = c.node
			case "cmd.name":
				cmdName = c.node
			case "pipe":
				pipe = c.node
			case "var":
				assign = c.node
			case "var.value":
				value = c.node
			}
		}
		switch {
		case !isNull(cmd):
			// A command spanning lines may hold several (see commands).
			start, end := span(cmd)
			if shInteresting[path.Base(a.s.text(cmdName))] || bytes.IndexByte(a.s[start:end], '\n') >= 0 {
				a.command(cmd)
			}
		case !isNull(pipe):
			a.pipeline(pipe)
		case !isNull(assign):
			if unquote(a.s.text(value)) == "0" {
				a.add("sh-node-tls-reject-unauthorized", assign, "", nil)
			}
		}
	})
}

func (a *shFile) add(id string, n sitter.Node, what string, fixes []checks.Fix) {
	start, end := span(n)
	a.r.add(id, start, end, what, fixes...)
}

// unquote strips one level of shell quotes from a word.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

func (a *shFile) command(cmd sitter.Node) {
	for _, c := range a.commands(cmd) {
		switch {
		case c.name == "rm":
			a.rm(c)
		case c.name == "chmod":
			a.chmod(c)
		case c.name == "curl" || c.name == "wget":
			a.insecureDownload(c)
		case shells[c.name] || c.name == "source" || c.name == "." || c.name == "eval":
			a.runsDownload(c)
		}
	}
}

func (a *shFile) addAt(id string, c shCmd, what string, fixes []checks.Fix) {
	a.r.add(id, c.start, c.end, what, fixes...)
}

// pipeline flags `curl ... | sh`: a download feeding an interpreter.
func (a *shFile) pipeline(pipe sitter.Node) {
	downloaded := false
	prevEnd := -1
	for _, stage := range namedChildren(pipe) {
		start, end := span(stage)
		if prevEnd >= 0 && !bytes.Contains(a.s[prevEnd:start], []byte("|")) {
			return // not a pipe: a line the parser joined to this one
		}
		prevEnd = end
		if kind(stage) == "redirected_statement" {
			stage = field(stage, "body")
		}
		c, ok := a.first(stage)
		if kind(stage) != "command" || !ok {
			continue
		}
		switch {
		case downloaders[c.name]:
			downloaded = true
		case downloaded && a.readsScriptFromStdin(c.name, c.args):
			a.r.add("sh-curl-pipe-shell", int(startOf(pipe)), c.end, "a downloaded script piped into "+c.name)
			return
		}
	}
}

var shCommandFlag = regexp.MustCompile(`^-[a-zA-Z]*c[a-zA-Z]*$`)

func (a *shFile) readsScriptFromStdin(name string, args []sitter.Node) bool {
	switch {
	case shells[name]:
		for _, arg := range args {
			if shCommandFlag.MatchString(a.s.text(arg)) {
				return false // sh -c 'script' runs its argument, not stdin
			}
		}
		return true
	case interpreters[name]:
		return len(args) == 0 || a.s.text(args[0]) == "-"
	}
	return false
}

// runsDownload flags `bash <(curl ...)`, `source <(curl ...)`,
// `sh -c "$(curl ...)"` and `eval "$(wget -O- ...)"`.
func (a *shFile) runsDownload(c shCmd) {
	name, args := c.name, c.args
	hasC := false
	for _, arg := range args {
		if shCommandFlag.MatchString(a.s.text(arg)) {
			hasC = true
		}
	}
	for _, arg := range args {
		for _, sub := range substitutions(arg) {
			if kind(sub) == "command_substitution" && name != "eval" && !hasC {
				continue // its output is an argument, not the script
			}
			if a.downloads(sub) {
				a.addAt("sh-curl-pipe-shell", c, name+" runs a downloaded script", nil)
				return
			}
		}
	}
}

// substitutions lists the $(...) and <(...) nodes in an argument.
func substitutions(arg sitter.Node) []sitter.Node {
	var out []sitter.Node
	var walk func(n sitter.Node, depth int)
	walk = func(n sitter.Node, depth int) {
		if depth > 4 {
			return
		}
		switch kind(n) {
		case "command_substitution", "process_substitution":
			out = append(out, n)
			return
		}
		for _, c := range namedChildren(n) {
			walk(c, depth+1)
		}
	}
	walk(arg, 0)
	return out
}

// downloads reports whether a substitution's commands include a download.
func (a *shFile) downloads(sub sitter.Node) bool {
	for _, c := range namedChildren(sub) {
		cmds := []sitter.Node{c}
		if kind(c) == "pipeline" {
			cmds = namedChildren(c)
		}
		for _, cmd := range cmds {
			if kind(cmd) != "command" {
				continue
			}
			if c, ok := a.first(cmd); ok && downloaders[c.name] {
				return true
			}
		}
	}
	return false
}

// rm flags `rm -r "$DIR/"`: with DIR unset or empty it removes /.
func (a *shFile) rm(c shCmd) {
	recursive := false
	for _, arg := range c.args {
		t := a.s.text(arg)
		if t == "--recursive" || (strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t, "rR")) {
			recursive = true
		}
	}
	if !recursive {
		return
	}
	for _, arg := range c.args {
		t := a.s.text(arg)
		name, start, end, ok := unguardedRootExpansion(t)
		if !ok {
			continue
		}
		at := int(startOf(arg))
		fix := replaceFix("Abort when "+name+" is empty: ${"+name+":?}", at+start, at+end, "${"+name+":?}", true)
		a.addAt("sh-rm-rf-var", c, "rm -r on "+t+" removes from / when "+name+" is empty", []checks.Fix{fix})
		return
	}
}

var shVarName = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*|[0-9@*])`)

// unguardedRootExpansion looks at a word like "$DIR/", $DIR/* or
// "${DIR}"/x: a variable expansion at the start, followed by a slash, with
// no ${VAR:?} or ${VAR:-default} guard. It returns the variable and the
// expansion's byte range in the word.
func unguardedRootExpansion(word string) (name string, start, end int, ok bool) {
	i, quoted := 0, false
	if strings.HasPrefix(word, `"`) {
		i, quoted = 1, true
	}
	if i >= len(word) || word[i] != '$' {
		return "", 0, 0, false
	}
	start = i
	if i+1 < len(word) && word[i+1] == '{' {
		j := strings.IndexByte(word[i:], '}')
		if j < 0 {
			return "", 0, 0, false
		}
		inner := word[i+2 : i+j]
		m := shVarName.FindString(inner)
		if m == "" || inner != m {
			return "", 0, 0, false // ${VAR:?}, ${VAR:-x} and friends guard or change it
		}
		name, end = m, i+j+1
	} else {
		m := shVarName.FindString(word[i+1:])
		if m == "" {
			return "", 0, 0, false
		}
		if len(m) > 1 && m[0] >= '0' && m[0] <= '9' {
			m = m[:1] // $1abc is $1 followed by abc
		}
		name, end = m, i+1+len(m)
	}
	rest := word[end:]
	if quoted && strings.HasPrefix(rest, `"`) {
		rest = rest[1:]
	}
	if !strings.HasPrefix(rest, "/") {
		return "", 0, 0, false
	}
	return name, start, end, true
}

var symbolicMode = regexp.MustCompile(`^([ugoa]*)([-+=])([rwxXst]*)$`)

// chmod flags modes that let any user write: 777, 0666, o+w, a=rwx.
func (a *shFile) chmod(c shCmd) {
	for _, arg := range c.args {
		t := unquote(a.s.text(arg))
		if strings.HasPrefix(t, "-") && !symbolicMode.MatchString(t) {
			continue // an option such as -R
		}
		if isOctalMode(t) {
			v, _ := strconv.ParseInt(t, 8, 64)
			if v&worldWritable == 0 {
				return
			}
			safer := strconv.FormatInt(v&^0o022, 8)
			for len(safer) < len(t) {
				safer = "0" + safer
			}
			start, end := span(arg)
			a.addAt("sh-chmod-world-writable", c, "chmod "+t+" lets any user write",
				[]checks.Fix{replaceFix("Use "+safer, start, end, safer, false)})
			return
		}
		for _, clause := range strings.Split(t, ",") {
			m := symbolicMode.FindStringSubmatch(clause)
			if m != nil && m[2] != "-" && strings.Contains(m[3], "w") && strings.ContainsAny(m[1], "oa") {
				a.addAt("sh-chmod-world-writable", c, "chmod "+t+" lets any user write", nil)
				return
			}
		}
		return // the mode is the first operand; the rest are files
	}
}

func isOctalMode(s string) bool {
	if len(s) < 3 || len(s) > 4 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '7' {
			return false
		}
	}
	return true
}

// insecureDownload flags curl -k/--insecure and wget --no-check-certificate.
func (a *shFile) insecureDownload(c shCmd) {
	for _, arg := range c.args {
		t := a.s.text(arg)
		bad := false
		switch c.name {
		case "curl":
			bad = t == "--insecure" || (len(t) > 1 && t[0] == '-' && t[1] != '-' && !strings.Contains(t, "=") && strings.ContainsRune(t, 'k'))
		case "wget":
			bad = t == "--no-check-certificate"
		}
		if bad {
			a.addAt("sh-curl-insecure", c, c.name+" "+t+" skips certificate checks", nil)
			return
		}
	}
}
