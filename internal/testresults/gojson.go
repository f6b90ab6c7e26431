package testresults

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeGoEvent reads a test2json line without reflection: a flat object
// of string and number fields, which is all test2json writes. It returns
// false for anything else, and the caller falls back to encoding/json.
// Most of a stream is "output" events, so this is the parser's hot path.
func decodeGoEvent(b []byte, ev *goEvent) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for {
		key, n, ok := jsonString(b, i)
		if !ok {
			return false
		}
		i = skipSpace(b, n)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return false
		}
		if b[i] == '"' {
			val, n, ok := jsonString(b, i)
			if !ok {
				return false
			}
			switch key {
			case "Action":
				ev.Action = val
			case "Package":
				ev.Package = val
			case "Test":
				ev.Test = val
			case "Output":
				ev.Output = val
			case "ImportPath":
				ev.ImportPath = val
			case "FailedBuild":
				ev.FailedBuild = val
			}
			i = n
		} else {
			j := i
			for j < len(b) && (b[j] == '-' || b[j] == '+' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] >= '0' && b[j] <= '9') {
				j++
			}
			if j == i {
				return false // an object, array, bool or null: not test2json's
			}
			if key == "Elapsed" {
				f, err := strconv.ParseFloat(string(b[i:j]), 64)
				if err != nil {
					return false
				}
				ev.Elapsed = f
			}
			i = j
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return skipSpace(b, i+1) == len(b)
		default:
			return false
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// jsonString decodes the JSON string starting at b[i] == '"' and returns
// it and the index after its closing quote.
func jsonString(b []byte, i int) (string, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return "", 0, false
	}
	start := i + 1
	j := start
	for j < len(b) && b[j] != '"' && b[j] != '\\' && b[j] >= 0x20 && b[j] < utf8.RuneSelf {
		j++
	}
	if j < len(b) && b[j] == '"' {
		return string(b[start:j]), j + 1, true
	}
	// Escapes or non-ASCII: the slow, careful way.
	out := make([]byte, 0, j-start+16)
	out = append(out, b[start:j]...)
	for j < len(b) {
		c := b[j]
		switch {
		case c == '"':
			return string(out), j + 1, true
		case c < 0x20:
			return "", 0, false
		case c == '\\':
			if j+1 >= len(b) {
				return "", 0, false
			}
			switch e := b[j+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
				j += 2
			case 'b':
				out = append(out, '\b')
				j += 2
			case 'f':
				out = append(out, '\f')
				j += 2
			case 'n':
				out = append(out, '\n')
				j += 2
			case 'r':
				out = append(out, '\r')
				j += 2
			case 't':
				out = append(out, '\t')
				j += 2
			case 'u':
				r, ok := hex4(b, j+2)
				if !ok {
					return "", 0, false
				}
				j += 6
				if utf16.IsSurrogate(r) {
					if r2, ok := hex4(b, j+2); ok && j+1 < len(b) && b[j] == '\\' && b[j+1] == 'u' {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							r = d
							j += 6
						} else {
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				return "", 0, false
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			j++
		default:
			r, size := utf8.DecodeRune(b[j:])
			// encoding/json turns invalid UTF-8 into U+FFFD; so do we.
			out = utf8.AppendRune(out, r)
			j += size
		}
	}
	return "", 0, false
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}
