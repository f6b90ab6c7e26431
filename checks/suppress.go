package checks

import (
	"bytes"
	"strings"

	"github.com/aisbx/aisbx/internal/textpos"
)

// suppressions reads the inline suppression comments of a file:
//
//	aisbx:ignore              on the line or the line above: every rule
//	aisbx:ignore[rule-a,b]    only those rules
//	gitleaks:allow            on the line: secret findings (gitleaks' own marker)
type suppressions struct {
	f   *File
	idx *textpos.Index
}

func newSuppressions(f *File) suppressions {
	return suppressions{f: f, idx: textpos.NewIndex(f.Content)}
}

func (s suppressions) suppressed(fd Finding) bool {
	line := s.idx.LineOf(fd.Start)
	if ignores(s.idx.Line(line), fd.Rule) {
		return true
	}
	if line > 0 && ignores(s.idx.Line(line-1), fd.Rule) {
		return true
	}
	if fd.Category == CategorySecret && bytes.Contains(s.idx.Line(line), []byte("gitleaks:allow")) {
		return true
	}
	return false
}

// ignores reports whether a line carries aisbx:ignore for rule.
func ignores(line []byte, rule string) bool {
	for {
		i := bytes.Index(line, []byte("aisbx:ignore"))
		if i < 0 {
			return false
		}
		rest := line[i+len("aisbx:ignore"):]
		if len(rest) == 0 || rest[0] != '[' {
			return true
		}
		end := bytes.IndexByte(rest, ']')
		if end < 0 {
			return true
		}
		for _, r := range strings.Split(string(rest[1:end]), ",") {
			if strings.TrimSpace(r) == rule {
				return true
			}
		}
		line = rest[end:]
	}
}

// fix builds the "suppress on this line" fix: a comment on the line above,
// indented like the line. Languages without comments get none.
func (s suppressions) fix(fd Finding) (Fix, bool) {
	tok := LineComment(s.f.Language)
	if tok == "" || fd.Rule == "" || fd.Category == CategoryTest {
		return Fix{}, false
	}
	line := s.idx.LineOf(fd.Start)
	text := s.idx.Line(line)
	indent := text[:len(text)-len(bytes.TrimLeft(text, " \t"))]
	nl := "\n"
	if end := s.idx.LineEnd(line); end < len(s.f.Content) && s.f.Content[end] == '\r' {
		nl = "\r\n"
	}
	start := s.idx.LineStart(line)
	return Fix{
		Title: "Suppress " + fd.Rule + " on this line",
		Edits: []Edit{{Start: start, End: start, NewText: string(indent) + tok + " aisbx:ignore[" + fd.Rule + "]" + nl}},
	}, true
}
