package textpos

import "testing"

func TestUTF16RoundTrip(t *testing.T) {
	tests := []struct {
		name string
		text string
		off  int
		want Position
	}{
		{"ascii", "abc\ndef", 5, Position{1, 1}},
		{"emoji counts two", "😀x = 1", len("😀x"), Position{0, 3}},
		{"accented counts one", "é=1", len("é="), Position{0, 2}},
		{"crlf line ending", "ab\r\ncd", 5, Position{1, 1}},
		{"inside crlf clamps to line end", "ab\r\ncd", 3, Position{0, 2}},
		{"no final newline", "a\nbc", 4, Position{1, 2}},
		{"after final newline", "a\n", 2, Position{1, 0}},
		{"past end clamps", "abc", 10, Position{0, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := NewIndex([]byte(tt.text))
			got := x.UTF16(tt.off)
			if got != tt.want {
				t.Fatalf("UTF16(%d) = %v, want %v", tt.off, got, tt.want)
			}
			back, ok := x.OffsetUTF16(got)
			if !ok {
				t.Fatalf("OffsetUTF16(%v) not ok", got)
			}
			if x.UTF16(back) != got {
				t.Fatalf("round trip %v -> %d -> %v", got, back, x.UTF16(back))
			}
		})
	}
}

func TestOffsetUTF16OutOfRange(t *testing.T) {
	x := NewIndex([]byte("ab\ncd"))
	for _, p := range []Position{{-1, 0}, {2, 0}, {0, 3}, {0, -1}} {
		if _, ok := x.OffsetUTF16(p); ok {
			t.Errorf("OffsetUTF16(%v) ok, want out of range", p)
		}
	}
	if off, ok := x.OffsetUTF16(Position{0, 2}); !ok || off != 2 {
		t.Errorf("end of line: got %d %v", off, ok)
	}
}

func TestLineHelpers(t *testing.T) {
	x := NewIndex([]byte("one\r\ntwo\nthree"))
	if x.LineCount() != 3 {
		t.Fatalf("LineCount = %d", x.LineCount())
	}
	for i, want := range []string{"one", "two", "three"} {
		if got := string(x.Line(i)); got != want {
			t.Errorf("Line(%d) = %q, want %q", i, got, want)
		}
	}
	if got := x.Runes(len("one\r\ntw")); got != (Position{1, 2}) {
		t.Errorf("Runes = %v", got)
	}
}

func BenchmarkNewIndex(b *testing.B) {
	text := make([]byte, 0, 131<<10)
	for len(text) < 131<<10 {
		text = append(text, "func main() { fmt.Println(\"hello, world\") }\n"...)
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		NewIndex(text)
	}
}
