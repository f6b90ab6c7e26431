package deps

import "bytes"

// jsImports returns the module specifiers a JavaScript or TypeScript file
// loads: static imports (also `import type`), `export ... from`, `import
// x = require()`, and require() and import() calls with a literal argument.
// A call inside a try block is marked optional: the code copes without it.
//
// Like the Python side it is a lexer (comments, strings, template literals
// with nested code, regex literals told apart from division by the token
// before them), in the manner of es-module-lexer. A broken line (JSX text
// with an apostrophe) cannot swallow the rest of the file: single-quoted
// strings and regexes end at the line end.
func jsImports(src []byte) []importRef {
	l := jsLexer{src: src}
	if bytes.HasPrefix(src, []byte("#!")) {
		l.i = bytes.IndexByte(src, '\n')
		if l.i < 0 {
			return nil
		}
	}
	l.scan(false)
	return l.out
}

type jsLexer struct {
	src []byte
	i   int
	out []importRef
	// prev is the kind of the last significant token: it decides whether a
	// "/" starts a regex or divides.
	prev    jsTok
	prevDot bool
	// braces counts open "{" across the file; tries holds the counts at
	// which try blocks opened, so a require inside one is optional.
	braces     int
	tries      []int
	pendingTry bool
}

type jsTok int

const (
	tokPunct jsTok = iota // an operator or "(": a regex may follow
	tokValue              // an identifier, literal, ")" or "]": "/" divides
)

// regexAfterKeyword lists keywords after which "/" starts a regex.
var regexAfterKeyword = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true, "delete": true,
	"void": true, "throw": true, "case": true, "do": true, "else": true, "yield": true, "await": true,
}

// scan lexes until the end, or with inTemplate until the "}" that closes a
// template literal's ${.
func (l *jsLexer) scan(inTemplate bool) {
	src := l.src
	depth := 0
	for l.i < len(src) {
		c := src[l.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			l.i++
		case c == '/' && l.i+1 < len(src) && src[l.i+1] == '/':
			l.skipLine()
		case c == '/' && l.i+1 < len(src) && src[l.i+1] == '*':
			l.skipBlockComment()
		case c == '\'' || c == '"':
			l.skipString()
			l.setPrev(tokValue)
		case c == '`':
			l.template()
			l.setPrev(tokValue)
		case c == '/':
			if l.prev == tokPunct {
				l.skipRegex()
				l.setPrev(tokValue)
			} else {
				l.i++
				l.setPrev(tokPunct)
			}
		case isJSIdentStart(c):
			start := l.i
			for l.i < len(src) && isJSIdent(src[l.i]) {
				l.i++
			}
			word := src[start:l.i]
			afterDot := l.prevDot
			l.setPrev(tokValue)
			if afterDot {
				continue
			}
			switch string(word) {
			case "try":
				if k := l.blank(l.i); k < len(src) && src[k] == '{' {
					l.pendingTry = true
				}
			case "import":
				l.afterImport()
			case "export":
				l.afterExport()
			case "require":
				l.afterRequire()
			default:
				if regexAfterKeyword[string(word)] {
					l.prev = tokPunct
				}
			}
		case c >= '0' && c <= '9':
			for l.i < len(src) && (isJSIdent(src[l.i]) || src[l.i] == '.') {
				l.i++
			}
			l.setPrev(tokValue)
		case c == '.':
			l.i++
			if l.i+1 < len(src) && src[l.i] == '.' && src[l.i+1] == '.' {
				l.i += 2
				l.setPrev(tokPunct)
				continue
			}
			l.prev, l.prevDot = tokPunct, true
		case c == ')' || c == ']':
			l.i++
			l.setPrev(tokValue)
		case c == '{':
			depth++
			l.braces++
			if l.pendingTry {
				l.tries = append(l.tries, l.braces)
				l.pendingTry = false
			}
			l.i++
			l.setPrev(tokPunct)
		case c == '}':
			if inTemplate && depth == 0 {
				l.i++
				return
			}
			if depth > 0 {
				depth--
			}
			if n := len(l.tries); n > 0 && l.tries[n-1] == l.braces {
				l.tries = l.tries[:n-1]
			}
			if l.braces > 0 {
				l.braces--
			}
			l.i++
			l.setPrev(tokPunct)
		default:
			l.i++
			l.setPrev(tokPunct)
		}
	}
}

func (l *jsLexer) setPrev(t jsTok) { l.prev, l.prevDot = t, false }

func (l *jsLexer) skipLine() {
	for l.i < len(l.src) && l.src[l.i] != '\n' {
		l.i++
	}
}

func (l *jsLexer) skipBlockComment() {
	if k := bytes.Index(l.src[l.i+2:], []byte("*/")); k >= 0 {
		l.i += 2 + k + 2
	} else {
		l.i = len(l.src)
	}
}

// skipString skips a quoted string; it ends at the line end if unclosed.
func (l *jsLexer) skipString() {
	q := l.src[l.i]
	for l.i++; l.i < len(l.src); l.i++ {
		switch l.src[l.i] {
		case '\\':
			l.i++
		case q:
			l.i++
			return
		case '\n':
			return
		}
	}
}

// template skips a template literal, lexing the code of its ${} parts.
func (l *jsLexer) template() {
	for l.i++; l.i < len(l.src); {
		switch l.src[l.i] {
		case '\\':
			l.i += 2
		case '`':
			l.i++
			return
		case '$':
			if l.i+1 < len(l.src) && l.src[l.i+1] == '{' {
				l.i += 2
				save := l.prev
				l.prev = tokPunct
				l.scan(true)
				l.prev = save
				continue
			}
			l.i++
		default:
			l.i++
		}
	}
}

// skipRegex skips a regex literal: "/" inside a class does not end it, and
// neither line ends nor unclosed classes may run past the line.
func (l *jsLexer) skipRegex() {
	class := false
	for l.i++; l.i < len(l.src); l.i++ {
		switch l.src[l.i] {
		case '\\':
			l.i++
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				l.i++
				for l.i < len(l.src) && isJSIdent(l.src[l.i]) {
					l.i++
				}
				return
			}
		case '\n':
			return
		}
	}
}

// blank skips blanks and comments from i and returns the next position.
func (l *jsLexer) blank(i int) int {
	for i < len(l.src) {
		c := l.src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '/' && i+1 < len(l.src) && l.src[i+1] == '/':
			for i < len(l.src) && l.src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(l.src) && l.src[i+1] == '*':
			if k := bytes.Index(l.src[i+2:], []byte("*/")); k >= 0 {
				i += 2 + k + 2
			} else {
				return len(l.src)
			}
		default:
			return i
		}
	}
	return i
}

// literal reads a string literal (or a template without substitutions) at
// i: its content range and the position after it.
func (l *jsLexer) literal(i int) (s, e, next int, ok bool) {
	if i >= len(l.src) {
		return 0, 0, i, false
	}
	q := l.src[i]
	if q != '\'' && q != '"' && q != '`' {
		return 0, 0, i, false
	}
	for j := i + 1; j < len(l.src); j++ {
		switch l.src[j] {
		case '\\', '\n':
			return 0, 0, j, false
		case '$':
			if q == '`' && j+1 < len(l.src) && l.src[j+1] == '{' {
				return 0, 0, j, false
			}
		case q:
			return i + 1, j, j + 1, true
		}
	}
	return 0, 0, len(l.src), false
}

func (l *jsLexer) record(s, e int) {
	l.out = append(l.out, importRef{path: string(l.src[s:e]), start: s, end: e, optional: len(l.tries) > 0})
}

// call records f('x') where l.i is just after f.
func (l *jsLexer) call() {
	j := l.blank(l.i)
	if j >= len(l.src) || l.src[j] != '(' {
		return
	}
	s, e, next, ok := l.literal(l.blank(j + 1))
	if !ok {
		return
	}
	if k := l.blank(next); k < len(l.src) && (l.src[k] == ')' || l.src[k] == ',') {
		l.record(s, e)
	}
}

func (l *jsLexer) afterRequire() { l.call() }

func (l *jsLexer) afterImport() {
	j := l.blank(l.i)
	if j >= len(l.src) {
		return
	}
	switch l.src[j] {
	case '(':
		l.call()
	case '.':
		// import.meta
	case '\'', '"':
		if s, e, _, ok := l.literal(j); ok {
			l.record(s, e)
		}
	default:
		l.fromClause(j)
	}
}

func (l *jsLexer) afterExport() {
	j := l.blank(l.i)
	if j < len(l.src) && (l.src[j] == '*' || l.src[j] == '{' || bytes.HasPrefix(l.src[j:], []byte("type"))) {
		l.fromClause(j)
	}
}

// fromClause looks past an import or export clause (names, braces, "as",
// "type", "*", commas) for `from 'x'`. It gives up at anything else, such
// as the "=" of `import x = require('y')`, which the main scan then sees.
func (l *jsLexer) fromClause(j int) {
	src := l.src
	for steps := 0; j < len(src) && steps < 512; steps++ {
		j = l.blank(j)
		if j >= len(src) {
			return
		}
		c := src[j]
		switch {
		case c == '{' || c == '}' || c == ',' || c == '*':
			j++
		case c == '\'' || c == '"':
			// import { "a-b" as ab } from 'x'
			_, _, next, ok := l.literal(j)
			if !ok {
				return
			}
			j = next
		case isJSIdentStart(c):
			k := j
			for k < len(src) && isJSIdent(src[k]) {
				k++
			}
			if string(src[j:k]) == "from" {
				if s, e, _, ok := l.literal(l.blank(k)); ok {
					l.record(s, e)
					return
				}
			}
			j = k
		default:
			return
		}
	}
}

func isJSIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isJSIdent(c byte) bool { return isJSIdentStart(c) || (c >= '0' && c <= '9') }
