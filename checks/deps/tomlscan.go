package deps

import "strings"

// tomlTok is a key or a string value of a TOML file, with its position.
// Decoding is left to BurntSushi/toml; this scan only finds where names are,
// which the decoder does not report.
type tomlTok struct {
	table      string // the [table] or [[array]] header it sits under, dotted
	key        string // the (dotted) key of the key/value pair it belongs to
	value      string // the string's text, or for a key token the key's first part
	start, end int    // byte range of value (inside the quotes)
	isKey      bool
	isString   bool
	inInline   bool // inside an inline table ({...}) of the value
}

// tomlScan lists the keys of top-level key/value pairs and every string in
// their values.
func tomlScan(data []byte) []tomlTok {
	var out []tomlTok
	table := ""
	n := len(data)
	for i := 0; i < n; {
		for i < n && (data[i] == ' ' || data[i] == '\t') {
			i++
		}
		if i >= n {
			break
		}
		switch c := data[i]; {
		case c == '\n' || c == '\r':
			i++
			continue
		case c == '#':
			i = tomlLineEnd(data, i)
			continue
		case c == '[':
			j := i + 1
			if j < n && data[j] == '[' {
				j++
			}
			parts, _, _, k := tomlKey(data, j)
			table = strings.Join(parts, ".")
			i = tomlLineEnd(data, k)
			continue
		}
		parts, s, e, j := tomlKey(data, i)
		if len(parts) == 0 || j >= n || data[j] != '=' {
			i = tomlLineEnd(data, i)
			continue
		}
		key := strings.Join(parts, ".")
		out = append(out, tomlTok{table: table, key: key, value: parts[0], start: s, end: e, isKey: true})
		i = tomlValue(data, j+1, table, key, &out)
	}
	return out
}

// tomlKey reads a dotted key (bare or quoted parts) at i. It returns the
// parts, the range of the first part, and the position after the key.
func tomlKey(data []byte, i int) (parts []string, s, e, next int) {
	n := len(data)
	for {
		for i < n && (data[i] == ' ' || data[i] == '\t') {
			i++
		}
		if i >= n {
			return parts, s, e, i
		}
		var ps, pe int
		if data[i] == '"' || data[i] == '\'' {
			ps, pe, i = tomlString(data, i)
		} else {
			ps = i
			for i < n && (isIdentByte(data[i]) || data[i] == '-') {
				i++
			}
			pe = i
		}
		if pe == ps && (ps == 0 || (data[ps-1] != '"' && data[ps-1] != '\'')) {
			return parts, s, e, i
		}
		if len(parts) == 0 {
			s, e = ps, pe
		}
		parts = append(parts, string(data[ps:pe]))
		for i < n && (data[i] == ' ' || data[i] == '\t') {
			i++
		}
		if i < n && data[i] == '.' {
			i++
			continue
		}
		return parts, s, e, i
	}
}

// tomlValue scans one value (which may span lines inside brackets) and
// returns the position after it.
func tomlValue(data []byte, i int, table, key string, out *[]tomlTok) int {
	var stack []byte
	braces := 0
	for n := len(data); i < n; {
		switch c := data[i]; c {
		case '"', '\'':
			s, e, next := tomlString(data, i)
			*out = append(*out, tomlTok{table: table, key: key, value: string(data[s:e]), start: s, end: e, isString: true, inInline: braces > 0})
			i = next
		case '[', '{':
			stack = append(stack, c)
			if c == '{' {
				braces++
			}
			i++
		case ']', '}':
			if len(stack) > 0 {
				if stack[len(stack)-1] == '{' {
					braces--
				}
				stack = stack[:len(stack)-1]
			}
			i++
		case '#':
			i = tomlLineEnd(data, i)
		case '\n':
			i++
			if len(stack) == 0 {
				return i
			}
		default:
			i++
		}
	}
	return len(data)
}

// tomlString reads a basic, literal or multi-line string at i and returns
// the range of its content and the position after it.
func tomlString(data []byte, i int) (s, e, next int) {
	n := len(data)
	q := data[i]
	if i+2 < n && data[i+1] == q && data[i+2] == q {
		s = i + 3
		for j := s; j < n; j++ {
			if data[j] == '\\' && q == '"' {
				j++
				continue
			}
			if j+2 < n && data[j] == q && data[j+1] == q && data[j+2] == q {
				return s, j, j + 3
			}
		}
		return s, n, n
	}
	s = i + 1
	for j := s; j < n; j++ {
		switch data[j] {
		case '\\':
			if q == '"' {
				j++
			}
		case q:
			return s, j, j + 1
		case '\n':
			return s, j, j
		}
	}
	return s, n, n
}

func tomlLineEnd(data []byte, i int) int {
	for i < len(data) && data[i] != '\n' {
		if data[i] == '"' || data[i] == '\'' {
			_, _, i = tomlString(data, i)
			continue
		}
		i++
	}
	return i
}
