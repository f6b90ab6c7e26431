package config

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/BurntSushi/toml"
)

// join formats key parts the way toml.Key.String does (quoting parts that
// are not bare keys), so that lookups by md.Undecoded() keys match.
func join(parts []string) string { return toml.Key(parts).String() }

// keyLines maps each dotted key of a TOML document to the 1-based line that
// sets it. BurntSushi/toml keeps key positions private, and diagnostics for
// unknown keys need them, so this reads just enough TOML: table headers,
// array-of-table headers and `key = value` lines (bare, quoted and dotted
// keys). Lines inside multi-line strings are skipped.
func keyLines(data []byte) map[string]int {
	out := map[string]int{}
	var table []string
	inMulti := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if inMulti != "" {
			if strings.Contains(line, inMulti) {
				inMulti = ""
			}
			continue
		}
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "[["):
			end := strings.Index(line, "]]")
			if end > 0 {
				table = splitKey(line[2:end])
				out[join(table)] = n
			}
			continue
		case strings.HasPrefix(line, "["):
			end := strings.IndexByte(line, ']')
			if end > 0 {
				table = splitKey(line[1:end])
				if _, seen := out[join(table)]; !seen {
					out[join(table)] = n
				}
			}
			continue
		}
		eq := keyEnd(line)
		if eq < 0 {
			continue
		}
		key := append(append([]string{}, table...), splitKey(line[:eq])...)
		for i := len(table) + 1; i <= len(key); i++ {
			if _, seen := out[join(key[:i])]; !seen {
				out[join(key[:i])] = n
			}
		}
		rest := line[eq+1:]
		for _, q := range []string{`"""`, `'''`} {
			if strings.Count(rest, q) == 1 {
				inMulti = q
			}
		}
		// Inline tables: record their keys on this line too.
		if i := strings.IndexByte(rest, '{'); i >= 0 {
			for _, part := range strings.Split(strings.Trim(strings.TrimSpace(rest[i:]), "{}"), ",") {
				if e := keyEnd(part); e > 0 {
					sub := append(append([]string{}, key...), splitKey(part[:e])...)
					out[join(sub)] = n
				}
			}
		}
	}
	return out
}

// keyEnd returns the index of the '=' that ends the key part of a line,
// skipping quoted keys, or -1.
func keyEnd(line string) int {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '=':
			return i
		}
	}
	return -1
}

// splitKey splits a dotted key into its parts, unquoting quoted parts.
func splitKey(s string) []string {
	var parts []string
	var cur strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '.':
			parts = append(parts, strings.TrimSpace(cur.String()))
			cur.Reset()
		case c == ' ' || c == '\t':
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, strings.TrimSpace(cur.String()))
}
