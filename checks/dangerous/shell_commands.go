package dangerous

import (
	"path"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// shCmd is one simple command as the shell runs it: after sudo, env and
// the like, with its own byte range.
type shCmd struct {
	name       string
	args       []sitter.Node
	start, end int
}

// commands splits a command node into the simple commands it really holds.
// Normally that is one. tree-sitter-bash v0.25 sometimes lets a command run
// on past the end of its line (seen with a quoted argument and a heredoc
// later in the file); an unescaped newline always ends a simple command, so
// each line it swallowed becomes a command of its own again.
func (a *shFile) commands(cmd sitter.Node) []shCmd {
	var out []shCmd
	var cur *shCmd
	prevEnd := -1
	for _, c := range namedChildren(cmd) {
		start, end := span(c)
		newLine := prevEnd >= 0 && endsLine(a.s[prevEnd:start])
		switch {
		case kind(c) == "command_name" || (newLine && cur != nil):
			out = append(out, shCmd{name: path.Base(unquote(a.s.text(c))), start: start, end: end})
			cur = &out[len(out)-1]
		case cur != nil:
			cur.args = append(cur.args, c)
			cur.end = end
		}
		prevEnd = end
	}
	for i := range out {
		out[i].name, out[i].args = a.unwrap(out[i].name, out[i].args)
	}
	return out
}

// endsLine reports whether the text between two words ends a command line:
// a newline not escaped by a backslash.
func endsLine(gap []byte) bool {
	for i, b := range gap {
		if b == '\n' && (i == 0 || gap[i-1] != '\\') {
			return true
		}
	}
	return false
}

// unwrap looks through sudo, env and the like to the command they run.
func (a *shFile) unwrap(name string, args []sitter.Node) (string, []sitter.Node) {
	for wrappers[name] {
		i := 0
		for i < len(args) {
			t := a.s.text(args[i])
			if name == "env" && strings.Contains(t, "=") && !strings.HasPrefix(t, "-") {
				i++
				continue
			}
			if !strings.HasPrefix(t, "-") {
				break
			}
			if wrapperValueFlags[t] && name != "env" || name == "env" && (t == "-u" || t == "-C") {
				i++
			}
			i++
		}
		if i >= len(args) {
			return name, nil
		}
		name, args = path.Base(unquote(a.s.text(args[i]))), args[i+1:]
	}
	return name, args
}

// first returns the first simple command of a command node.
func (a *shFile) first(cmd sitter.Node) (shCmd, bool) {
	cs := a.commands(cmd)
	if len(cs) == 0 {
		return shCmd{}, false
	}
	return cs[0], true
}
