package sandbox

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestCapture(t *testing.T) {
	cases := []struct {
		name      string
		keep      int
		limit     int64
		writes    []string
		want      string
		dropped   int64
		overLimit bool
	}{
		{"fits", 10, 100, []string{"abc", "def"}, "abcdef", 0, false},
		{"head and tail", 6, 100, []string{"abcdef", "ghijkl"}, "abc\n[aisbx: 6 bytes of output dropped here]\njkl", 6, false},
		{"tail wraps", 6, 100, []string{"abc", "d", "e", "f", "g", "h", "ij"}, "abc\n[aisbx: 4 bytes of output dropped here]\nhij", 4, false},
		{"limit cuts", 100, 5, []string{"abc", "defg"}, "abcde", 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var streamed bytes.Buffer
			c := newCapture(tc.keep, tc.limit, func(_ string, p []byte) { streamed.Write(p) })
			var err error
			for i, w := range tc.writes {
				stream := "stdout"
				if i%2 == 1 {
					stream = "stderr"
				}
				if _, err = c.writer(stream).Write([]byte(w)); err != nil {
					break
				}
			}
			if errors.Is(err, errOutputLimit) != tc.overLimit {
				t.Errorf("limit error %v, want %v", err, tc.overLimit)
			}
			out, truncated, dropped := c.result()
			if string(out) != tc.want || dropped != tc.dropped || truncated != (tc.dropped > 0) {
				t.Errorf("got %q (dropped %d, truncated %v), want %q (dropped %d)", out, dropped, truncated, tc.want, tc.dropped)
			}
			if all := strings.Join(tc.writes, ""); !strings.HasPrefix(all, streamed.String()) || int64(streamed.Len()) != min(int64(len(all)), tc.limit) {
				t.Errorf("streamed %q of %q (limit %d)", streamed.String(), all, tc.limit)
			}
		})
	}
}

func BenchmarkCapture(b *testing.B) {
	c := newCapture(256<<10, 1<<62, nil)
	w := c.writer("stdout")
	chunk := bytes.Repeat([]byte("x"), 32<<10)
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		_, _ = w.Write(chunk)
	}
}
