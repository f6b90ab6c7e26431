package linters

import "testing"

func TestLocatorUnits(t *testing.T) {
	// Line 2 holds an emoji (4 bytes, 2 UTF-16 units, 1 rune), a tab and an
	// accented letter (2 bytes, 1 unit, 1 rune) before "x".
	text := "first\n😀\té x\r\nlast"
	xOff := len("first\n😀\té ")
	tests := []struct {
		name string
		p    loc
		u    unit
		want int
	}{
		{"bytes", loc{2, 1 + len("😀\té ")}, unitBytes, xOff},
		{"runes", loc{2, 1 + 4}, unitRunes, xOff},
		{"utf16", loc{2, 1 + 5}, unitUTF16, xOff},
		{"col 0 is the line start", loc{2, 0}, unitRunes, len("first\n")},
		{"col past the line end clamps before CRLF", loc{2, 99}, unitRunes, len("first\n😀\té x")},
		{"line past the end clamps to the end", loc{9, 1}, unitBytes, len(text)},
		{"no position is offset 0", loc{0, 0}, unitBytes, 0},
	}
	l := newLocator([]byte(text))
	for _, tt := range tests {
		if got := l.offset(tt.p, tt.u); got != tt.want {
			t.Errorf("%s: offset(%v) = %d, want %d", tt.name, tt.p, got, tt.want)
		}
	}
	// From the start of the text to "x": 6 units of "first\n", 2 of the
	// emoji, then tab, é and space.
	if got := l.absOffset(6+2+3, unitUTF16); got != xOff {
		t.Errorf("absOffset utf16 = %d, want %d", got, xOff)
	}
	if got := l.absOffset(6+1+3, unitRunes); got != xOff {
		t.Errorf("absOffset runes = %d, want %d", got, xOff)
	}
}

func TestSpanWithoutEnd(t *testing.T) {
	text := "\tfoo_bar(x) // y\n  only line\n"
	l := newLocator([]byte(text))
	tests := []struct {
		name       string
		start, end loc
		want       string
	}{
		{"word at start", loc{1, 2}, loc{}, "foo_bar"},
		{"punctuation is one character", loc{1, 9}, loc{}, "("},
		{"only a line: the line without indentation", loc{2, 0}, loc{}, "only line"},
		{"an empty range becomes the word", loc{1, 2}, loc{1, 2}, "foo_bar"},
		{"a real range is kept", loc{1, 2}, loc{1, 12}, "foo_bar(x)"},
	}
	for _, tt := range tests {
		s, e := l.span(tt.start, tt.end, unitBytes)
		if got := text[s:e]; got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
