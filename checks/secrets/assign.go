package secrets

import (
	"bytes"

	"github.com/aisbx/aisbx/checks"
)

// The assignment lexer replaces gitleaks' generic regex, which is where
// gitleaks spends most of its time. Starting from a keyword hit it reads,
// by hand, the forms secrets are written in:
//
//	name = "value"   name := "value"   name: value   "name": "value"
//	NAME=value       name => 'value'   <name>value</name>   ENV NAME value
//	setenv("NAME", "value")   name: str = "value"   var name string = "value"
//
// A value is the whole quoted literal (so "hunter#2@x" keeps its # and @) or,
// outside programming languages, the whole word up to white space.

type assignment struct {
	name               string
	nameStart, nameEnd int
	valStart, valEnd   int // the value, without quotes
	litStart, litEnd   int // the literal, quotes and prefix included
	quote              byte
	prefix             string
	scheme             string // "Basic", "Bearer"... when the value followed one
}

func isNameByte(c byte) bool {
	return isWordByte(c) || c == '-' || c == '.' || c == '$' || c == '@'
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// parseAssignment reads the assignment whose name contains b[hs:he].
func parseAssignment(b []byte, hs, he int, fk fileKind) (assignment, bool) {
	ns, ne := hs, he
	for ns > 0 && isNameByte(b[ns-1]) && hs-ns < 80 && !afterEscape(b, ns) {
		ns--
	}
	for ne < len(b) && isNameByte(b[ne]) && ne-he < 80 {
		ne++
	}
	for ns < ne && (b[ns] == '-' || b[ns] == '.' || b[ns] == '$' || b[ns] == '@') {
		ns++
	}
	for ne > ns && (b[ne-1] == '.' || b[ne-1] == '-') {
		ne--
	}
	if ns >= ne || ne-ns > 100 {
		return assignment{nameEnd: ne}, false
	}
	a := assignment{name: string(b[ns:ne]), nameStart: ns, nameEnd: ne}
	p := ne
	quotedName := false
	if ns > 0 && p < len(b) && (b[ns-1] == '"' || b[ns-1] == '\'') && b[p] == b[ns-1] {
		quotedName = true
		p++
		if p < len(b) && b[p] == ']' {
			p++
		}
	}
	// <password>value</password>
	if ns > 0 && b[ns-1] == '<' && p < len(b) && b[p] == '>' {
		end := p + 1
		for end < len(b) && b[end] != '<' && b[end] != '\n' {
			end++
		}
		if end >= len(b) || b[end] != '<' {
			return a, false
		}
		a.valStart, a.valEnd, a.litStart, a.litEnd = p+1, end, p+1, end
		return a, true
	}
	p = skipBlanks(b, p)
	p, ok := parseOperator(b, p, quotedName, fk)
	if !ok {
		return a, false
	}
	p = skipBlanks(b, p)
	return parseValue(b, p, a, fk)
}

func skipBlanks(b []byte, p int) int {
	for p < len(b) && isBlank(b[p]) {
		p++
	}
	return p
}

// parseOperator reads an assignment operator at p and returns where the
// value may start.
func parseOperator(b []byte, p int, quotedName bool, fk fileKind) (int, bool) {
	if p >= len(b) {
		return 0, false
	}
	at := func(i int) byte {
		if i < len(b) {
			return b[i]
		}
		return 0
	}
	switch b[p] {
	case ':':
		switch at(p + 1) {
		case '=':
			return p + 2, true
		case ':':
			return 0, false
		}
		// A type annotation: `name: str = "v"`, `token: string = 'v'`.
		if q, ok := typeThenEquals(b, skipBlanks(b, p+1)); ok {
			return q, true
		}
		return p + 1, true
	case '=':
		switch at(p + 1) {
		case '=', '~':
			return 0, false
		case '>':
			return p + 2, true
		}
		return p + 1, true
	case '?':
		if at(p+1) == '=' {
			return p + 2, true
		}
		if at(p+1) == '?' && at(p+2) == '=' {
			return p + 3, true
		}
	case '|':
		if at(p+1) == '|' && at(p+2) == '=' {
			return p + 3, true
		}
	case ',':
		// setenv("API_TOKEN", "value"), headers.put("X-Api-Key", "value"):
		// the name must be a call's first argument, not an item of a list.
		if quotedName && callArgument(b, p) {
			return p + 1, true
		}
	default:
		if q, ok := typeThenEquals(b, p); ok && !quotedName {
			return q, true // Go: var password string = "v"
		}
		// Dockerfile: ENV NAME value
		if fk.lang == checks.LangDockerfile && p > 0 && isBlank(b[p-1]) && isDockerEnvLine(b, p) {
			return p, true
		}
	}
	return 0, false
}

// callArgument reports whether the quoted name that ends before p opens a
// call's argument list: `f("NAME",`.
func callArgument(b []byte, p int) bool {
	q := bytes.LastIndexAny(b[:p-1], "\"'")
	for q--; q >= 0 && isBlank(b[q]); q-- {
	}
	return q >= 0 && b[q] == '('
}

// typeThenEquals accepts a short type name followed by '=' (not '==').
func typeThenEquals(b []byte, p int) (int, bool) {
	q := p
	for q < len(b) && q-p < 40 && (isWordByte(b[q]) || bytes.IndexByte([]byte(".[]|<>*"), b[q]) >= 0) {
		q++
	}
	if q == p || !('a' <= b[p]|0x20 && b[p]|0x20 <= 'z' || b[p] == '[' || b[p] == '*') {
		return 0, false
	}
	q = skipBlanks(b, q)
	if q < len(b) && b[q] == '=' && (q+1 >= len(b) || b[q+1] != '=') {
		return q + 1, true
	}
	return 0, false
}

func isDockerEnvLine(b []byte, p int) bool {
	ls := bytes.LastIndexByte(b[:p], '\n') + 1
	line := bytes.TrimLeft(b[ls:p], " \t")
	return len(line) > 4 && (bytes.EqualFold(line[:4], []byte("ENV ")) || bytes.EqualFold(line[:4], []byte("ARG ")))
}

// parseValue reads the value at p: a quoted literal anywhere, a bare word
// only outside programming languages.
func parseValue(b []byte, p int, a assignment, fk fileKind) (assignment, bool) {
	if p >= len(b) || b[p] == '\n' || b[p] == '\r' {
		return a, false
	}
	litStart := p
	// String prefixes: Python b"", r"", u"", f""; C# @"".
	pre := p
	for pre < len(b) && pre-p < 2 && bytes.IndexByte([]byte("bBrRuUfF@"), b[pre]) >= 0 {
		pre++
	}
	if pre > p && pre < len(b) && (b[pre] == '"' || b[pre] == '\'') {
		a.prefix = string(b[p:pre])
		if bytes.ContainsAny([]byte(a.prefix), "fF") {
			return a, false // an f-string is built at run time
		}
		p = pre
	}
	if q := b[p]; q == '"' || q == '\'' || q == '`' {
		if p+2 < len(b) && b[p+1] == q && b[p+2] == q {
			return a, false // triple-quoted: a docstring or a block, not a value
		}
		i := p + 1
		limit := min(len(b), p+1+maxValueLen+1)
		for i < limit && b[i] != q && b[i] != '\n' {
			if b[i] == '\\' && q != '`' {
				i++
			}
			i++
		}
		if i >= limit || b[i] != q {
			return a, false
		}
		a.quote = q
		a.valStart, a.valEnd = p+1, i
		a.litStart, a.litEnd = litStart, i+1
		stripAuthScheme(b, &a)
		return a, true
	}
	if fk.code || a.prefix != "" {
		return a, false
	}
	end := p
	limit := min(len(b), p+maxValueLen+1)
	for end < limit && !endsBareValue(b, end) {
		end++
	}
	// "Authorization: Bearer <token>" written bare (HTTP files, YAML).
	if w := b[p:end]; isAuthScheme(w) && end < len(b) && b[end] == ' ' {
		a.scheme = string(w)
		p = end + 1
		end = p
		limit = min(len(b), p+maxValueLen+1)
		for end < limit && !endsBareValue(b, end) {
			end++
		}
	}
	for end > p && (b[end-1] == ',' || b[end-1] == '}' || b[end-1] == ']') {
		end--
	}
	if end > p && b[end-1] == ';' || bytes.ContainsAny(b[p:end], "([{") || end-p > maxValueLen {
		a.valEnd = end
		return a, false // an expression in a language we do not know, or a blob
	}
	a.valStart, a.valEnd, a.litStart, a.litEnd = p, end, p, end
	return a, end > p
}

// endsBareValue reports whether b[i] ends an unquoted value: white space, a
// quote, or an escape sequence of the string the text sits in ("\n").
func endsBareValue(b []byte, i int) bool {
	switch b[i] {
	case ' ', '\t', '\n', '\r', '"', '\'':
		return true
	case '\\':
		return i+1 < len(b) && bytes.IndexByte([]byte(`nrt"'`), b[i+1]) >= 0
	}
	return false
}

func isAuthScheme(w []byte) bool {
	for _, s := range []string{"Bearer", "Basic", "Token", "token", "bearer", "Bot"} {
		if string(w) == s {
			return true
		}
	}
	return false
}

// stripAuthScheme narrows "Bearer <token>" to the token.
func stripAuthScheme(b []byte, a *assignment) {
	v := b[a.valStart:a.valEnd]
	if sp := bytes.IndexByte(v, ' '); sp > 0 && isAuthScheme(v[:sp]) {
		a.scheme = string(v[:sp])
		a.valStart += sp + 1
	}
}

// nameBefore finds the name a literal starting at lit is assigned to, on
// the same line: the inverse of parseAssignment, for provider tokens.
func nameBefore(b []byte, lit int) string {
	p := lit - 1
	for p >= 0 && isBlank(b[p]) {
		p--
	}
	// The operator.
	switch {
	case p >= 1 && (string(b[p-1:p+1]) == ":=" || string(b[p-1:p+1]) == "=>"):
		p -= 2
	case p >= 0 && (b[p] == '=' || b[p] == ':' || b[p] == ','):
		p--
	default:
		return ""
	}
	for p >= 0 && isBlank(b[p]) {
		p--
	}
	if p >= 0 && b[p] == ']' {
		p--
	}
	if p >= 0 && (b[p] == '"' || b[p] == '\'') {
		p--
	}
	end := p + 1
	for p >= 0 && isNameByte(b[p]) && end-p < 100 {
		p--
	}
	name := string(bytes.TrimLeft(b[p+1:end], "-.$@"))
	// Go and TypeScript declarations put the type between name and '=':
	// take the word before it when this one is a type.
	if typeNames[name] && p >= 0 && (isBlank(b[p]) || b[p] == ':') {
		return typeFallback(b, p)
	}
	return name
}

var typeNames = map[string]bool{"string": true, "str": true, "String": true, "bytes": true, "[]byte": true}

// typeFallback returns the identifier before a type name ("var token string").
func typeFallback(b []byte, p int) string {
	for p >= 0 && (isBlank(b[p]) || b[p] == ':') {
		p--
	}
	end := p + 1
	for p >= 0 && isNameByte(b[p]) && end-p < 100 {
		p--
	}
	return string(bytes.TrimLeft(b[p+1:end], "-.$@"))
}
