package dangerous

import (
	"bytes"
	"sort"
)

// A query over a whole file costs the same however few patterns match: the
// cursor visits every node. Most lines of a file cannot matter to any rule,
// so the analyzers first find the words rules care about (eval, exec,
// innerHTML, curl, the file's import aliases, ...) with a plain scan, and run
// their query only over the lines around those words.

// maxWindows is where windows stop paying: each window's query descends from
// the root, so a file dense with candidates is cheaper to query whole. A
// variable so that a test can force whole-file queries and compare.
var maxWindows = 200

// window is a byte range of whole lines, [start, end).
type window struct{ start, end int }

// scanWords calls fn for each identifier-like word of src found in words.
// It knows nothing of comments or strings; the query and the tree do.
func scanWords(src []byte, words map[string]bool, fn func(start, end int)) {
	for i := 0; i < len(src); {
		c := src[i]
		if !isIdentByte(c) || c >= '0' && c <= '9' {
			i++
			if c >= '0' && c <= '9' {
				for i < len(src) && isIdentByte(src[i]) {
					i++
				}
			}
			continue
		}
		j := i + 1
		for j < len(src) && isIdentByte(src[j]) {
			j++
		}
		if words[string(src[i:j])] {
			fn(i, j)
		}
		i = j
	}
}

// lineWindows returns the lines holding one of words, merged where they
// touch. ok is false when there are too many to be worth it.
func lineWindows(src []byte, words map[string]bool) (ws []window, ok bool) {
	scanWords(src, words, func(start, end int) {
		ls := bytes.LastIndexByte(src[:start], '\n') + 1
		le := bytes.IndexByte(src[end:], '\n')
		if le < 0 {
			le = len(src)
		} else {
			le += end + 1
		}
		if n := len(ws); n > 0 && ws[n-1].end >= ls {
			ws[n-1].end = max(ws[n-1].end, le)
			return
		}
		ws = append(ws, window{ls, le})
	})
	return ws, len(ws) <= maxWindows
}

// without drops from ws the parts already covered by done (both sorted).
func without(ws, done []window) []window {
	var out []window
	for _, w := range ws {
		i := sort.Search(len(done), func(i int) bool { return done[i].end > w.start })
		if i < len(done) && done[i].start <= w.start && done[i].end >= w.end {
			continue
		}
		out = append(out, w)
	}
	return out
}
