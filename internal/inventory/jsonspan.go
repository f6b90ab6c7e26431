package inventory

import (
	"encoding/json"
	"errors"
	"fmt"
)

// encoding/json decodes values but forgets where they were. jsonMembers
// walks the same text once more and reports where each object member's
// key and value lie, so that lockfile entries can be located; it skips
// values without building them, which keeps it cheap on large lockfiles.

// jsonMember is one "key": value pair of an object.
type jsonMember struct {
	path  []string // keys of the enclosing objects, outermost first
	key   string
	keyAt Span // the key's text, without quotes
	value Span // the value, quotes included for strings
}

const maxJSONDepth = 512

var errJSONDepth = errors.New("JSON nested too deeply")

// walkJSON calls visit for every object member. visit returns whether to
// descend into the member's value.
func walkJSON(data []byte, visit func(m *jsonMember) bool) error {
	w := jsonWalker{data: data, visit: visit}
	i := w.space(0)
	_, err := w.value(i, 0)
	return err
}

type jsonWalker struct {
	data  []byte
	path  []string
	visit func(m *jsonMember) bool
}

func (w *jsonWalker) space(i int) int {
	for i < len(w.data) {
		switch w.data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func (w *jsonWalker) errAt(i int, what string) error {
	return fmt.Errorf("JSON: %s at byte %d", what, i)
}

// value skips the value starting at i and returns the offset after it.
// descend=false skips nested members without visiting them.
func (w *jsonWalker) value(i, depth int) (int, error) {
	return w.valueMode(i, depth, true)
}

func (w *jsonWalker) valueMode(i, depth int, descend bool) (int, error) {
	if i >= len(w.data) {
		return i, w.errAt(i, "unexpected end")
	}
	if depth > maxJSONDepth {
		return i, errJSONDepth
	}
	switch c := w.data[i]; {
	case c == '{':
		return w.object(i, depth, descend)
	case c == '[':
		return w.array(i, depth, descend)
	case c == '"':
		return w.str(i)
	default:
		j := i
		for j < len(w.data) {
			switch w.data[j] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				if j == i {
					return j, w.errAt(i, "unexpected character")
				}
				return j, nil
			}
			j++
		}
		return j, nil
	}
}

func (w *jsonWalker) str(i int) (int, error) {
	for j := i + 1; j < len(w.data); j++ {
		switch w.data[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return len(w.data), w.errAt(i, "unterminated string")
}

func (w *jsonWalker) object(i, depth int, descend bool) (int, error) {
	i = w.space(i + 1)
	if i < len(w.data) && w.data[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(w.data) || w.data[i] != '"' {
			return i, w.errAt(i, "expected a key")
		}
		kEnd, err := w.str(i)
		if err != nil {
			return i, err
		}
		j := w.space(kEnd)
		if j >= len(w.data) || w.data[j] != ':' {
			return j, w.errAt(j, "expected ':'")
		}
		vStart := w.space(j + 1)
		var vEnd int
		if descend {
			key, err := jsonKey(w.data[i:kEnd])
			if err != nil {
				return i, err
			}
			m := jsonMember{path: w.path, key: key, keyAt: Span{i + 1, kEnd - 1}}
			vEnd, err = w.member(vStart, depth, &m)
			if err != nil {
				return vEnd, err
			}
		} else if vEnd, err = w.valueMode(vStart, depth+1, false); err != nil {
			return vEnd, err
		}
		i = w.space(vEnd)
		if i < len(w.data) && w.data[i] == ',' {
			i = w.space(i + 1)
			continue
		}
		if i < len(w.data) && w.data[i] == '}' {
			return i + 1, nil
		}
		return i, w.errAt(i, "expected ',' or '}'")
	}
}

// member finds the value's extent, reports the member, and walks into the
// value when the visitor asks to. A container is scanned once to find its
// end and once more only if the visitor descends, which lockfile readers do
// for one or two levels.
func (w *jsonWalker) member(vStart, depth int, m *jsonMember) (int, error) {
	vEnd, err := w.valueMode(vStart, depth+1, false)
	if err != nil {
		return vEnd, err
	}
	m.value = Span{vStart, vEnd}
	if !w.visit(m) {
		return vEnd, nil
	}
	if c := w.data[vStart]; c != '{' && c != '[' {
		return vEnd, nil
	}
	w.path = append(w.path, m.key)
	_, err = w.valueMode(vStart, depth+1, true)
	w.path = w.path[:len(w.path)-1]
	return vEnd, err
}

func (w *jsonWalker) array(i, depth int, descend bool) (int, error) {
	i = w.space(i + 1)
	if i < len(w.data) && w.data[i] == ']' {
		return i + 1, nil
	}
	for {
		j, err := w.valueMode(i, depth+1, descend)
		if err != nil {
			return j, err
		}
		i = w.space(j)
		if i < len(w.data) && w.data[i] == ',' {
			i = w.space(i + 1)
			continue
		}
		if i < len(w.data) && w.data[i] == ']' {
			return i + 1, nil
		}
		return i, w.errAt(i, "expected ',' or ']'")
	}
}

// jsonKey decodes a quoted key; the common case has no escapes.
func jsonKey(raw []byte) (string, error) {
	inner := raw[1 : len(raw)-1]
	for _, c := range inner {
		if c == '\\' {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", err
			}
			return s, nil
		}
	}
	return string(inner), nil
}
