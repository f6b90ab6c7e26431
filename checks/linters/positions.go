package linters

import (
	"sort"
	"unicode/utf8"

	"github.com/aisbx/aisbx/internal/textpos"
)

// unit is what a tool's columns count.
type unit int

const (
	unitBytes unit = iota // go/token, Python's ast col_offset
	unitRunes             // ruff, shellcheck json1
	unitUTF16             // eslint (JavaScript string indices)
)

// loc is a tool's position: a 1-based line and 1-based column in the tool's
// unit. Col 0 means the tool gave only a line; Line 0 means no position.
type loc struct {
	Line, Col int
}

// locator converts tool positions into byte offsets of one file's content.
type locator struct {
	idx        *textpos.Index
	starts     []int // lazily, units before each line (see unitStarts)
	startsUnit unit
}

func newLocator(content []byte) *locator { return &locator{idx: textpos.NewIndex(content)} }

// offset returns the byte offset of p, clamped to the text: a column past
// the end of its line lands on the line's end, a line past the end of the
// text on the end of the text.
func (l *locator) offset(p loc, u unit) int {
	line := p.Line - 1
	if line < 0 {
		return 0
	}
	if line >= l.idx.LineCount() {
		return len(l.idx.Text())
	}
	if p.Col <= 1 {
		return l.idx.LineStart(line)
	}
	col := p.Col - 1
	switch u {
	case unitUTF16:
		off, _ := l.idx.OffsetUTF16(textpos.Position{Line: line, Col: col})
		return off
	case unitRunes:
		start, end := l.idx.LineStart(line), l.idx.LineEnd(line)
		text := l.idx.Text()
		i := start
		for n := 0; n < col && i < end; n++ {
			_, size := utf8.DecodeRune(text[i:end])
			i += size
		}
		return i
	default:
		off, _ := l.idx.OffsetBytes(textpos.Position{Line: line, Col: col})
		return off
	}
}

// absOffset converts an offset from the start of the text, counted in u,
// into a byte offset (eslint's fix ranges count UTF-16 units). It finds the
// line through per-line unit counts, so converting every fix of a big file
// stays linear.
func (l *locator) absOffset(n int, u unit) int {
	text := l.idx.Text()
	if n <= 0 {
		return 0
	}
	if u == unitBytes {
		return min(n, len(text))
	}
	starts := l.unitStarts(u)
	line := sort.Search(len(starts), func(i int) bool { return starts[i] > n }) - 1
	i, count := l.idx.LineStart(line), starts[line]
	for i < len(text) && count < n {
		r, size := utf8.DecodeRune(text[i:])
		count++
		if u == unitUTF16 && r >= 0x10000 {
			count++
		}
		i += size
	}
	return i
}

// unitStarts returns, for each line, how many units of u precede it.
func (l *locator) unitStarts(u unit) []int {
	if l.starts != nil && l.startsUnit == u {
		return l.starts
	}
	text := l.idx.Text()
	starts := make([]int, l.idx.LineCount())
	count := 0
	for line := range starts {
		starts[line] = count
		end := len(text)
		if line+1 < len(starts) {
			end = l.idx.LineStart(line + 1)
		}
		for i := l.idx.LineStart(line); i < end; {
			c := text[i]
			if c < utf8.RuneSelf {
				count++
				i++
				continue
			}
			r, size := utf8.DecodeRune(text[i:end])
			count++
			if u == unitUTF16 && r >= 0x10000 {
				count++
			}
			i += size
		}
	}
	l.starts, l.startsUnit = starts, u
	return starts
}

// span returns the byte range of a finding from start to end. A tool that
// gives no end, or an empty range, gets the word at start, or the rest of
// the line when there is no word there, so the squiggle is visible.
func (l *locator) span(start, end loc, u unit) (int, int) {
	s := l.offset(start, u)
	if start.Col == 0 {
		// Only a line: mark the line's text without its indentation.
		line := start.Line - 1
		ls, le := l.idx.LineStart(line), l.idx.LineEnd(line)
		text := l.idx.Text()
		for ls < le && (text[ls] == ' ' || text[ls] == '\t') {
			ls++
		}
		return ls, le
	}
	e := s
	if end.Line > 0 {
		e = l.offset(end, u)
	}
	if e > s {
		return s, e
	}
	return s, l.wordEnd(s)
}

// wordEnd returns the end of the identifier-like run at off; when off is not on
// one, the end of the character there (a "%" or "("); at the end of a line,
// the line's end.
func (l *locator) wordEnd(off int) int {
	text := l.idx.Text()
	lineEnd := l.idx.LineEnd(l.idx.LineOf(off))
	i := off
	for i < lineEnd {
		r, size := utf8.DecodeRune(text[i:lineEnd])
		if !(r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= utf8.RuneSelf) {
			break
		}
		i += size
	}
	if i == off && off < lineEnd {
		_, size := utf8.DecodeRune(text[off:lineEnd])
		return off + size
	}
	return i
}
