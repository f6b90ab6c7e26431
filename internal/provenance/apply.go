package provenance

import (
	"bytes"
	"fmt"
)

// replacement is one string substitution, the way coding agents' edit tools
// describe it: Old must occur once in the file, or All says to replace every
// occurrence.
type replacement struct {
	Old, New string
	All      bool
}

// applyReplacements performs rs in order on text, as the agent's tool will.
func applyReplacements(text []byte, rs []replacement) ([]byte, error) {
	buf := append([]byte(nil), text...)
	for i, r := range rs {
		if r.Old == "" {
			if len(bytes.TrimSpace(buf)) != 0 {
				return nil, fmt.Errorf("edit %d: empty old_string on a non-empty file", i+1)
			}
			buf = []byte(r.New)
			continue
		}
		var at []int
		for off := 0; ; {
			j := bytes.Index(buf[off:], []byte(r.Old))
			if j < 0 {
				break
			}
			at = append(at, off+j)
			off += j + len(r.Old)
		}
		switch {
		case len(at) == 0:
			return nil, fmt.Errorf("edit %d: old_string not found in the file", i+1)
		case len(at) > 1 && !r.All:
			return nil, fmt.Errorf("edit %d: old_string occurs %d times and replace_all is false", i+1, len(at))
		}
		for k := len(at) - 1; k >= 0; k-- { // back to front keeps earlier offsets valid
			s, e := at[k], at[k]+len(r.Old)
			buf = append(buf[:s], append([]byte(r.New), buf[e:]...)...)
		}
	}
	return buf, nil
}

// locate finds where each inserted string sits in text, for when the
// original is unknown: the first occurrence not already claimed.
func locate(text []byte, inserted []string) []span {
	var spans []span
	for _, ins := range inserted {
		if ins == "" {
			continue
		}
		from := 0
		for {
			j := bytes.Index(text[from:], []byte(ins))
			if j < 0 {
				break
			}
			s := span{from + j, from + j + len(ins)}
			if !claimed(spans, s) {
				spans = append(spans, s)
				break
			}
			from = s.start + 1
		}
	}
	return spans
}

func claimed(spans []span, s span) bool {
	for _, c := range spans {
		if c == s {
			return true
		}
	}
	return false
}
