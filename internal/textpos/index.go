package textpos

import (
	"sort"
	"unicode/utf8"
)

// Index maps byte offsets in a text to lines and columns. Lines end at "\n";
// a "\r" before it belongs to the line ending, not to the line's columns. The
// last line need not end with a newline.
type Index struct {
	text  []byte
	lines []int // byte offset where each line starts; lines[0] == 0
}

// NewIndex indexes text. The Index keeps a reference to text; callers must not
// modify it afterwards.
func NewIndex(text []byte) *Index {
	lines := make([]int, 1, 64)
	for i, b := range text {
		if b == '\n' {
			lines = append(lines, i+1)
		}
	}
	return &Index{text: text, lines: lines}
}

// Text returns the indexed text.
func (x *Index) Text() []byte { return x.text }

// LineCount is the number of lines, counting a last line without newline and
// the empty line after a final newline.
func (x *Index) LineCount() int { return len(x.lines) }

// LineStart returns the byte offset at which 0-based line starts, clamped to
// the text.
func (x *Index) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(x.lines) {
		return len(x.text)
	}
	return x.lines[line]
}

// LineEnd returns the byte offset of the end of a 0-based line's content,
// before its "\r\n" or "\n".
func (x *Index) LineEnd(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(x.lines) {
		return len(x.text)
	}
	end := len(x.text)
	if line+1 < len(x.lines) {
		end = x.lines[line+1] - 1 // the '\n'
		if end > x.lines[line] && x.text[end-1] == '\r' {
			end--
		}
	} else if end > x.lines[line] && x.text[end-1] == '\r' {
		end-- // a lone trailing '\r' on the last line
	}
	return end
}

// Line returns the content of a 0-based line, without its line ending.
func (x *Index) Line(line int) []byte {
	return x.text[x.LineStart(line):x.LineEnd(line)]
}

// LineOf returns the 0-based line containing byte offset off, clamped.
func (x *Index) LineOf(off int) int {
	if off <= 0 {
		return 0
	}
	if off > len(x.text) {
		off = len(x.text)
	}
	return sort.Search(len(x.lines), func(i int) bool { return x.lines[i] > off }) - 1
}

// Position is a 0-based line and column. Which unit Col counts depends on the
// function that returned it.
type Position struct {
	Line int
	Col  int
}

// UTF16 returns the 0-based line and UTF-16 code-unit column of byte offset
// off. An offset inside a line ending or inside a UTF-8 sequence is clamped
// to the nearest position before it.
func (x *Index) UTF16(off int) Position {
	line := x.LineOf(off)
	start, end := x.LineStart(line), x.LineEnd(line)
	if off > end {
		off = end
	}
	return Position{Line: line, Col: utf16Len(x.text[start:off])}
}

// Bytes returns the 0-based line and byte column of offset off.
func (x *Index) Bytes(off int) Position {
	line := x.LineOf(off)
	start, end := x.LineStart(line), x.LineEnd(line)
	if off > end {
		off = end
	}
	if off < start {
		off = start
	}
	return Position{Line: line, Col: off - start}
}

// Runes returns the 0-based line and rune (Unicode code point) column of off.
func (x *Index) Runes(off int) Position {
	p := x.Bytes(off)
	start := x.LineStart(p.Line)
	return Position{Line: p.Line, Col: utf8.RuneCount(x.text[start : start+p.Col])}
}

// OffsetUTF16 returns the byte offset of a 0-based line and UTF-16 column.
// ok is false when the position lies outside the text: a line past the end,
// or a column past the line's end. A column that falls inside a surrogate
// pair is rounded down to the start of the character.
func (x *Index) OffsetUTF16(p Position) (off int, ok bool) {
	if p.Line < 0 || p.Col < 0 || p.Line >= len(x.lines) {
		return 0, false
	}
	start, end := x.LineStart(p.Line), x.LineEnd(p.Line)
	units := 0
	for i := start; i < end; {
		if units >= p.Col {
			return i, true
		}
		r, size := utf8.DecodeRune(x.text[i:end])
		n := 1
		if r >= 0x10000 {
			n = 2
		}
		if units+n > p.Col {
			return i, true // inside a surrogate pair
		}
		units += n
		i += size
	}
	if units == p.Col {
		return end, true
	}
	return end, false
}

// OffsetBytes returns the byte offset of a 0-based line and byte column.
func (x *Index) OffsetBytes(p Position) (off int, ok bool) {
	if p.Line < 0 || p.Col < 0 || p.Line >= len(x.lines) {
		return 0, false
	}
	start, end := x.LineStart(p.Line), x.LineEnd(p.Line)
	if start+p.Col > end {
		return end, false
	}
	return start + p.Col, true
}

// utf16Len counts the UTF-16 code units of UTF-8 text. Invalid bytes count
// as one unit each, as U+FFFD does.
func utf16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x10000 {
			n += 2 // a surrogate pair
		} else {
			n++
		}
		i += size
	}
	return n
}

// UTF16Len counts the UTF-16 code units of UTF-8 text.
func UTF16Len(s string) int { return utf16Len([]byte(s)) }
