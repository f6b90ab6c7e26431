package secrets

import (
	"bytes"
	"math"
)

// placeholderWords mark documentation examples and templates; a value
// containing one (case-insensitively) is not a live secret.
var placeholderWords = [][]byte{
	[]byte("example"), []byte("placeholder"), []byte("redacted"), []byte("changeme"), []byte("change_me"),
	[]byte("change-me"), []byte("dummy"), []byte("sample"), []byte("your_"), []byte("your-"), []byte("yourkey"),
	[]byte("yourtoken"), []byte("yourpass"), []byte("yoursecret"), []byte("xxxxx"), []byte("*****"),
	[]byte("...."), []byte("…"), []byte("fake"), []byte("not_a_real"), []byte("not-a-real"), []byte("notreal"),
	[]byte("insert_"), []byte("insert-"), []byte("replace_with"), []byte("replace-with"), []byte("replaceme"),
	[]byte("_here"), []byte("-here"), []byte("${"), []byte("{{"), []byte("}}"), []byte("$("), []byte("%s"),
	[]byte("%("), []byte("#{"), []byte("<"), []byte(">"),
}

// isPlaceholder reports values that are templates or examples: AKIA…EXAMPLE,
// xxxx, <your-key>, ${VAR}, {{ .Values.x }}, runs like 000000 or abcdef.
func isPlaceholder(v []byte) bool {
	var buf [256]byte
	lv := buf[:0]
	if len(v) > len(buf) {
		lv = make([]byte, 0, len(v))
	}
	for _, c := range v {
		lv = append(lv, lower(c))
	}
	for _, w := range placeholderWords {
		if bytes.Contains(lv, w) {
			return true
		}
	}
	if len(v) >= 2 && v[0] == '{' && v[len(v)-1] == '}' {
		return true // {password}: a format field
	}
	run, seq := 1, 1
	for i := 1; i < len(lv); i++ {
		if lv[i] == lv[i-1] {
			run++
		} else {
			run = 1
		}
		if lv[i] == lv[i-1]+1 && isWordByte(lv[i]) {
			seq++
		} else {
			seq = 1
		}
		if run >= 6 || seq >= 6 {
			return true
		}
	}
	return false
}

// isUUID reports the 8-4-4-4-12 hex form: identifiers, not credentials.
func isUUID(v []byte) bool {
	if len(v) != 36 {
		return false
	}
	for i, c := range v {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !isHexByte(c) {
			return false
		}
	}
	return true
}

func isHexByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isHex(v []byte) bool {
	for _, c := range v {
		if !isHexByte(c) {
			return false
		}
	}
	return len(v) > 0
}

// entropy is the Shannon entropy of v in bits per byte.
func entropy(v []byte) float64 {
	if len(v) == 0 {
		return 0
	}
	var counts [256]int
	for _, c := range v {
		counts[c]++
	}
	n := float64(len(v))
	h := 0.0
	for _, k := range counts {
		if k > 0 {
			p := float64(k) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
