package provenance

import (
	"bytes"
	"sort"
)

// LineChange describes an edit at line level: Deleted lines starting at
// Start were replaced by Inserted lines. Inserting two lines before line 7
// is {7, 0, 2}; retyping line 7 is {7, 1, 1}; deleting lines 7-9 is {7, 3, 0}.
type LineChange struct {
	Start    int `json:"start"`
	Deleted  int `json:"deleted"`
	Inserted int `json:"inserted"`
}

// LineChangeFor converts a text edit (0-based positions; columns in any
// unit, only whether they are 0 matters) replacing start..end with newText.
// Typing on an AI-written line makes that line the person's, so it counts
// as replaced; only whole-line insertions and deletions leave it alone.
func LineChangeFor(startLine, startCol, endLine, endCol int, newText string) LineChange {
	nl := bytes.Count([]byte(newText), []byte{'\n'})
	if startLine == endLine && startCol == endCol && startCol == 0 && nl > 0 && newText[len(newText)-1] == '\n' {
		return LineChange{Start: startLine, Inserted: nl} // whole lines pasted above startLine
	}
	if startCol == 0 && endCol == 0 && endLine > startLine && newText == "" {
		return LineChange{Start: startLine, Deleted: endLine - startLine} // whole lines removed
	}
	return LineChange{Start: startLine, Deleted: endLine - startLine + 1, Inserted: nl + 1}
}

// MapRanges carries ranges through a later change: lines above the change
// keep their numbers, lines below shift, and lines the change replaced are
// no longer the AI's, which may split a range in two. The result is sorted
// and merged; rs is not modified.
func MapRanges(rs []Range, c LineChange) []Range {
	if c.Deleted < 0 || c.Inserted < 0 || c.Start < 0 {
		return normalize(append([]Range(nil), rs...))
	}
	delta := c.Inserted - c.Deleted
	delEnd := c.Start + c.Deleted
	out := make([]Range, 0, len(rs)+1)
	for _, r := range rs {
		if r.Start < c.Start { // the part above the change
			out = append(out, Range{r.Start, min(r.End, c.Start)})
		}
		if r.End > delEnd { // the part below it, shifted
			out = append(out, Range{max(r.Start, delEnd) + delta, r.End + delta})
		}
	}
	return normalize(out)
}

// normalize sorts ranges, drops empty ones and merges overlapping or
// adjacent ones.
func normalize(rs []Range) []Range {
	kept := rs[:0]
	for _, r := range rs {
		if r.End > r.Start && r.Start >= 0 {
			kept = append(kept, r)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].Start < kept[j].Start })
	out := kept[:0]
	for _, r := range kept {
		if n := len(out); n > 0 && r.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, r.End)
			continue
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// lineIndex maps byte offsets to 0-based lines.
type lineIndex []int // offsets where lines start

func newLineIndex(text []byte) lineIndex {
	idx := lineIndex{0}
	for i, b := range text {
		if b == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (x lineIndex) lineOf(off int) int {
	return sort.Search(len(x), func(i int) bool { return x[i] > off }) - 1
}

// span is a byte range [start, end) of a text.
type span struct{ start, end int }

// linesOf converts byte spans of text into the lines they touch.
func linesOf(text []byte, spans []span) []Range {
	x := newLineIndex(text)
	var out []Range
	for _, s := range spans {
		if s.end <= s.start {
			continue
		}
		out = append(out, Range{x.lineOf(s.start), x.lineOf(s.end-1) + 1})
	}
	return normalize(out)
}

// wholeFile is every line of text; nothing for an empty text.
func wholeFile(text []byte) []Range {
	if len(text) == 0 {
		return nil
	}
	n := bytes.Count(text, []byte{'\n'})
	if text[len(text)-1] != '\n' {
		n++
	}
	return []Range{{0, n}}
}

// fromOneBased converts an inclusive 1-based span, as git-ai and Agent
// Trace write them, into a Range; false when it makes no sense.
func fromOneBased(start, end int) (Range, bool) {
	if start < 1 || end < start {
		return Range{}, false
	}
	return Range{start - 1, end}, true
}
