package frame

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
)

func frameOf(body string) string {
	return "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}

func TestReaderRecovers(t *testing.T) {
	tests := []struct {
		name      string
		input     string
		want      []string
		malformed int // how many reads report skipped input
	}{
		{"two good frames", frameOf(`{"a":1}`) + frameOf(`{"b":2}`), []string{`{"a":1}`, `{"b":2}`}, 0},
		{"garbage before a frame", "garbage bytes\r\n\r\n" + frameOf(`{"a":1}`), []string{`{"a":1}`}, 1},
		{"bad length then good", "Content-Length: abc\r\n\r\n" + frameOf(`{"a":1}`), []string{`{"a":1}`}, 1},
		{"missing length", "Content-Type: x\r\n\r\n" + frameOf(`{"a":1}`), []string{`{"a":1}`}, 1},
		{"huge length refused", "Content-Length: 999999999999\r\n\r\n" + frameOf(`{"a":1}`), []string{`{"a":1}`}, 1},
		{"blank lines between frames", "\r\n\r\n" + frameOf(`{"a":1}`), []string{`{"a":1}`}, 0},
		{"lowercase header and extra header", "content-length: 7\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{\"a\":1}", []string{`{"a":1}`}, 0},
		{"garbage line straight into a header", "junk\n" + frameOf(`{"a":1}`), []string{`{"a":1}`}, 1},
		{"json without header", `{"jsonrpc":"2.0"}` + "\n" + frameOf(`{"a":1}`), []string{`{"a":1}`}, 1},
		{"very long garbage line", strings.Repeat("x", 100<<10) + "\n\r\n" + frameOf(`{"a":1}`), []string{`{"a":1}`}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.input))
			var got []string
			malformed := 0
			for {
				body, skipped, err := r.Read()
				if skipped != nil {
					malformed++
				}
				if err != nil {
					if !errors.Is(err, io.EOF) {
						t.Fatalf("err = %v", err)
					}
					break
				}
				got = append(got, string(body))
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("frames = %q, want %q", got, tt.want)
			}
			if malformed != tt.malformed {
				t.Errorf("malformed reports = %d, want %d", malformed, tt.malformed)
			}
		})
	}
}

func TestTruncatedBody(t *testing.T) {
	r := NewReader(strings.NewReader("Content-Length: 10\r\n\r\nabc"))
	if _, _, err := r.Read(); err == nil || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want unexpected EOF", err)
	}
}

func TestWriterRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, b := range []string{`{"x":"é"}`, `{}`} {
		if _, err := w.Write([]byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	r := NewReader(&buf)
	for _, want := range []string{`{"x":"é"}`, `{}`} {
		body, _, err := r.Read()
		if err != nil || string(body) != want {
			t.Fatalf("got %q, %v; want %q", body, err, want)
		}
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte(frameOf(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`)))
	f.Add([]byte("Content-Length: 5\r\n\r\nab"))
	f.Add([]byte("\x00\xff garbage\nContent-Length: -1\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		for i := 0; i < 1000; i++ {
			if _, _, err := r.Read(); err != nil {
				return
			}
		}
	})
}
