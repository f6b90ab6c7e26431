package inventory

import (
	"bytes"
	"strings"
)

// BurntSushi/toml decodes values but does not say where keys are, so the
// TOML readers decode with it and then find each entry's line with these
// helpers, which only need to recognise table headers and "key =" lines.

// tomlSection is one table of a TOML file: its header ("project",
// "tool.poetry.dependencies"; "" for the root table) and its byte range.
type tomlSection struct {
	name  string
	array bool // [[name]]
	start int  // start of the header line
	end   int  // start of the next header line, or len(content)
}

func tomlSections(content []byte) []tomlSection {
	secs := []tomlSection{{name: "", start: 0}}
	off := 0
	for off < len(content) {
		nl := bytes.IndexByte(content[off:], '\n')
		lineEnd := len(content)
		if nl >= 0 {
			lineEnd = off + nl
		}
		line := strings.TrimSpace(string(content[off:lineEnd]))
		if strings.HasPrefix(line, "[") {
			if i := strings.Index(line, "#"); i >= 0 {
				line = strings.TrimSpace(line[:i])
			}
			arr := strings.HasPrefix(line, "[[") && strings.HasSuffix(line, "]]")
			name := strings.Trim(line, "[]")
			if strings.HasSuffix(line, "]") && name != "" && !strings.Contains(name, ",") {
				secs[len(secs)-1].end = off
				secs = append(secs, tomlSection{name: normTOMLKey(name), array: arr, start: off})
			}
		}
		off = lineEnd + 1
	}
	secs[len(secs)-1].end = len(content)
	return secs
}

// normTOMLKey drops spaces and quotes from a dotted key so that
// [tool . "poetry"] and [tool.poetry] compare equal.
func normTOMLKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// section returns the first table named name.
func section(secs []tomlSection, name string) (tomlSection, bool) {
	for _, s := range secs {
		if s.name == name && !s.array {
			return s, true
		}
	}
	return tomlSection{}, false
}

// keySpan finds "key = ..." at the start of a line within [from, to) and
// returns the span of the key without quotes.
func keySpan(content []byte, from, to int, key string) (Span, bool) {
	off := from
	for off < to {
		nl := bytes.IndexByte(content[off:to], '\n')
		lineEnd := to
		if nl >= 0 {
			lineEnd = off + nl
		}
		line := content[off:lineEnd]
		lead := len(line) - len(bytes.TrimLeft(line, " \t"))
		rest := line[lead:]
		for _, q := range []string{"", `"`, `'`} {
			k := q + key + q
			if bytes.HasPrefix(rest, []byte(k)) {
				after := bytes.TrimLeft(rest[len(k):], " \t")
				if len(after) > 0 && after[0] == '=' {
					s := off + lead + len(q)
					return Span{s, s + len(key)}, true
				}
			}
		}
		off = lineEnd + 1
	}
	return Span{}, false
}

// quotedSpan finds s written as a TOML string ("s" or 's') within
// [from, to) and returns the span of its text.
func quotedSpan(content []byte, from, to int, s string) (Span, bool) {
	if from < 0 || to > len(content) || from > to {
		return Span{}, false
	}
	for _, q := range []string{`"`, `'`} {
		if i := bytes.Index(content[from:to], []byte(q+s+q)); i >= 0 {
			st := from + i + 1
			return Span{st, st + len(s)}, true
		}
	}
	return Span{}, false
}
