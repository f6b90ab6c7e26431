package deps

import (
	"bytes"
	"strings"
)

// pyImports returns the absolute imports of a Python file: the module of
// every `import a.b` and `from a.b import c`. Relative imports are skipped.
// Imports inside a try whose except catches ImportError (or anything
// broader) are marked optional.
//
// It is a lexer, not a parser: it knows strings (all prefixes, triple
// quotes, f-string replacement fields), comments, brackets, line
// continuations and statement starts, which is all that import statements
// need. A tree-sitter parse costs about a hundred times more; the tests
// compare both on the same files.
func pyImports(src []byte) []importRef {
	l := pyLexer{src: src}
	l.run()
	return l.out
}

type pyLexer struct {
	src    []byte
	i      int
	depth  int
	out    []importRef
	frames []tryFrame
}

type tryFrame struct {
	indent  int
	inBody  bool
	imports []int
}

func (l *pyLexer) run() {
	src := l.src
	atStmt, lineStart := true, true
	stmtIndent, lineIndent := 0, 0
	for l.i < len(src) {
		if atStmt {
			col := 0
			for l.i < len(src) && (src[l.i] == ' ' || src[l.i] == '\t' || src[l.i] == '\f') {
				if src[l.i] == '\t' {
					col = (col/8 + 1) * 8
				} else {
					col++
				}
				l.i++
			}
			if l.i >= len(src) {
				return
			}
			if c := src[l.i]; c != '\n' && c != '\r' && c != '#' {
				if lineStart {
					lineIndent, stmtIndent = col, col
				}
				l.statement(lineStart, stmtIndent)
			}
			atStmt, lineStart = false, false
			continue
		}
		c := src[l.i]
		switch {
		case c == '#':
			for l.i < len(src) && src[l.i] != '\n' {
				l.i++
			}
		case c == '\\':
			l.i++
			if l.i < len(src) && src[l.i] == '\r' {
				l.i++
			}
			if l.i < len(src) && src[l.i] == '\n' {
				l.i++
			}
		case c == '\n':
			l.i++
			if l.depth == 0 {
				atStmt, lineStart = true, true
			}
		case c == '"' || c == '\'':
			l.skipString(false)
		case isIdentByte(c):
			start := l.i
			for l.i < len(src) && isIdentByte(src[l.i]) {
				l.i++
			}
			if l.i < len(src) && (src[l.i] == '"' || src[l.i] == '\'') {
				if f, ok := stringPrefix(src[start:l.i]); ok {
					l.skipString(f)
				}
			}
		case c == '(' || c == '[' || c == '{':
			l.depth++
			l.i++
		case c == ')' || c == ']' || c == '}':
			if l.depth > 0 {
				l.depth--
			}
			l.i++
		case c == ';' && l.depth == 0:
			l.i++
			atStmt = true
		case c == ':' && l.depth == 0:
			l.i++
			if l.i < len(src) && src[l.i] == '=' {
				continue
			}
			atStmt, stmtIndent = true, lineIndent+1
		default:
			l.i++
		}
	}
}

// statement looks at the first word of a statement.
func (l *pyLexer) statement(lineStart bool, indent int) {
	kw := l.word()
	if lineStart {
		for len(l.frames) > 0 {
			top := &l.frames[len(l.frames)-1]
			if indent > top.indent || (indent == top.indent && (kw == "except" || kw == "else" || kw == "finally")) {
				break
			}
			l.frames = l.frames[:len(l.frames)-1]
		}
	}
	switch kw {
	case "import":
		l.i += len(kw)
		l.importNames(indent)
	case "from":
		l.i += len(kw)
		l.fromImport(indent)
	case "try":
		l.frames = append(l.frames, tryFrame{indent: indent, inBody: true})
		l.i += len(kw)
	case "except":
		if n := len(l.frames); n > 0 && l.frames[n-1].indent == indent {
			top := &l.frames[n-1]
			top.inBody = false
			if catchesImportError(l.clause()) {
				for _, k := range top.imports {
					l.out[k].optional = true
				}
			}
		}
		l.i += len(kw)
	}
}

// word returns the identifier at l.i without consuming it.
func (l *pyLexer) word() string {
	j := l.i
	for j < len(l.src) && isIdentByte(l.src[j]) {
		j++
	}
	return string(l.src[l.i:j])
}

// clause returns the rest of the except line up to its colon.
func (l *pyLexer) clause() []byte {
	rest := l.src[l.i:]
	if k := bytes.IndexAny(rest, ":\n"); k >= 0 {
		rest = rest[:k]
	}
	return rest
}

func catchesImportError(clause []byte) bool {
	c := bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(clause), []byte("except")))
	c = bytes.TrimSpace(bytes.TrimPrefix(c, []byte("*")))
	if len(c) == 0 {
		return true // a bare except
	}
	for _, name := range []string{"ImportError", "ModuleNotFoundError", "Exception"} {
		if bytes.Contains(c, []byte(name)) {
			return true
		}
	}
	return false
}

func (l *pyLexer) record(name string, start, end, indent int) {
	l.out = append(l.out, importRef{path: name, start: start, end: end})
	for k := range l.frames {
		if fr := &l.frames[k]; fr.inBody && indent > fr.indent {
			fr.imports = append(fr.imports, len(l.out)-1)
		}
	}
}

// importNames reads `import a.b as c, d` after the keyword.
func (l *pyLexer) importNames(indent int) {
	if !l.space() {
		return
	}
	for {
		name, start, end := l.dotted()
		if name == "" {
			return
		}
		l.record(name, start, end, indent)
		l.spaceOpt()
		if l.keyword("as") {
			l.spaceOpt()
			l.dotted()
			l.spaceOpt()
		}
		if l.i < len(l.src) && l.src[l.i] == ',' {
			l.i++
			l.spaceOpt()
			continue
		}
		return
	}
}

// fromImport reads `from .a.b import c` after the keyword.
func (l *pyLexer) fromImport(indent int) {
	l.spaceOpt()
	level := 0
	for l.i < len(l.src) && l.src[l.i] == '.' {
		level++
		l.i++
	}
	l.spaceOpt()
	name, start, end := l.dotted()
	l.spaceOpt()
	if !l.keyword("import") {
		return
	}
	if level == 0 && name != "" {
		l.record(name, start, end, indent)
		l.out[len(l.out)-1].names = l.importedNames()
	}
}

// importedNames reads the names after `from x import`: plain, in
// parentheses over several lines, with "as" aliases. A star import gives
// none.
func (l *pyLexer) importedNames() []string {
	var names []string
	paren := false
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == ' ' || c == '\t' || c == '\f' || c == ',' || (paren && (c == '\n' || c == '\r')):
			l.i++
		case c == '\\':
			l.spaceOpt()
			if l.i < len(l.src) && l.src[l.i] == '\\' {
				return names
			}
		case c == '(' && !paren:
			paren = true
			l.i++
		case c == '#' && paren:
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.i++
			}
		case isIdentByte(c):
			s := l.i
			for l.i < len(l.src) && isIdentByte(l.src[l.i]) {
				l.i++
			}
			if w := string(l.src[s:l.i]); w != "as" && (len(names) == 0 || !prevIsAs(l.src[:s])) {
				names = append(names, w)
			}
		case c == ')' && paren:
			l.i++
			return names
		default:
			return names
		}
	}
	return names
}

// prevIsAs reports whether the word before the current one is "as".
func prevIsAs(before []byte) bool {
	t := bytes.TrimRight(before, " \t\\\r\n")
	return bytes.HasSuffix(t, []byte(" as")) || bytes.HasSuffix(t, []byte("\tas")) || bytes.HasSuffix(t, []byte("\nas"))
}

// keyword consumes kw when it is the next word.
func (l *pyLexer) keyword(kw string) bool {
	if bytes.HasPrefix(l.src[l.i:], []byte(kw)) {
		j := l.i + len(kw)
		if j == len(l.src) || !isIdentByte(l.src[j]) {
			l.i = j
			return true
		}
	}
	return false
}

// space consumes at least one blank (or a line continuation).
func (l *pyLexer) space() bool {
	s := l.i
	l.spaceOpt()
	return l.i > s
}

func (l *pyLexer) spaceOpt() {
	for l.i < len(l.src) {
		switch l.src[l.i] {
		case ' ', '\t', '\f':
			l.i++
		case '\\':
			j := l.i + 1
			if j < len(l.src) && l.src[j] == '\r' {
				j++
			}
			if j < len(l.src) && l.src[j] == '\n' {
				l.i = j + 1
				continue
			}
			return
		default:
			return
		}
	}
}

// dotted reads a dotted name, allowing blanks around the dots.
func (l *pyLexer) dotted() (name string, start, end int) {
	start = l.i
	// The common case, a name without blanks, is one slice of the source.
	j := l.i
	for j < len(l.src) && (isIdentByte(l.src[j]) || (l.src[j] == '.' && j > start && j+1 < len(l.src) && isIdentByte(l.src[j+1]))) {
		j++
	}
	if j == len(l.src) || (l.src[j] != ' ' && l.src[j] != '\t' && l.src[j] != '\\' && l.src[j] != '.') {
		l.i = j
		return string(l.src[start:j]), start, j
	}
	var b []byte
	for {
		s := l.i
		for l.i < len(l.src) && isIdentByte(l.src[l.i]) {
			l.i++
		}
		if l.i == s {
			break
		}
		b = append(b, l.src[s:l.i]...)
		end = l.i
		save := l.i
		l.spaceOpt()
		if l.i < len(l.src) && l.src[l.i] == '.' {
			l.i++
			l.spaceOpt()
			b = append(b, '.')
			continue
		}
		l.i = save
		break
	}
	if len(b) > 0 && b[len(b)-1] == '.' {
		b = b[:len(b)-1]
	}
	return string(b), start, end
}

// skipString skips the string literal whose opening quote is at l.i. A
// backslash skips the next byte in raw strings too: r"\"" is one string.
func (l *pyLexer) skipString(fstr bool) {
	src := l.src
	q := src[l.i]
	triple := l.i+2 < len(src) && src[l.i+1] == q && src[l.i+2] == q
	if triple {
		l.i += 3
	} else {
		l.i++
	}
	for l.i < len(src) {
		c := src[l.i]
		switch {
		case c == '\\':
			l.i += 2
		case c == '\n' && !triple:
			return // unterminated: stop at the line end, as Python's tokenizer does
		case fstr && c == '{':
			if l.i+1 < len(src) && src[l.i+1] == '{' {
				l.i += 2
				continue
			}
			l.i++
			l.skipReplacement()
		case c == q:
			if !triple {
				l.i++
				return
			}
			if l.i+2 < len(src) && src[l.i+1] == q && src[l.i+2] == q {
				l.i += 3
				return
			}
			l.i++
		default:
			l.i++
		}
	}
}

// skipReplacement skips an f-string replacement field after its "{": code,
// which may hold strings with the same quotes (Python 3.12) and nested
// fields in the format spec.
func (l *pyLexer) skipReplacement() {
	depth := 1
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '{' || c == '(' || c == '[':
			depth++
			l.i++
		case c == '}' || c == ')' || c == ']':
			depth--
			l.i++
			if depth == 0 {
				return
			}
		case c == '"' || c == '\'':
			l.skipString(false)
		case isIdentByte(c):
			s := l.i
			for l.i < len(l.src) && isIdentByte(l.src[l.i]) {
				l.i++
			}
			if l.i < len(l.src) && (l.src[l.i] == '"' || l.src[l.i] == '\'') {
				if f, ok := stringPrefix(l.src[s:l.i]); ok {
					l.skipString(f)
				}
			}
		default:
			l.i++
		}
	}
}

// stringPrefix reports whether p is a string prefix (r, b, u, f, t and their
// combinations, any case), and whether it makes a formatted string.
func stringPrefix(p []byte) (fstr, ok bool) {
	if len(p) > 2 {
		return false, false
	}
	for _, c := range p {
		switch c | 0x20 {
		case 'f', 't':
			fstr = true
		case 'r', 'b', 'u':
		default:
			return false, false
		}
	}
	return fstr, true
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 0x80 || (c|0x20 >= 'a' && c|0x20 <= 'z') || (c >= '0' && c <= '9')
}

// pyModuleName is the importable name a directory entry provides, or "".
func pyModuleName(name string, isDir bool) string {
	if name == "" || name[0] == '.' || name == "__pycache__" {
		return ""
	}
	if isDir {
		if isPyIdent(name) {
			return name
		}
		return ""
	}
	i := strings.IndexByte(name, '.')
	if i <= 0 {
		return ""
	}
	for _, ext := range []string{".py", ".pyi", ".so", ".pyd", ".pyx"} {
		if strings.HasSuffix(name, ext) {
			if m := name[:i]; isPyIdent(m) {
				return m
			}
			return ""
		}
	}
	return ""
}

func isPyIdent(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}
