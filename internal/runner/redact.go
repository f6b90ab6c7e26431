package runner

import (
	"bytes"
	"sync"
)

// LineRedactor passes streamed output on a whole line at a time, with
// secrets redacted. Chunks from a container split lines anywhere, and a
// secret cut in two would slip past a redactor that saw the halves apart.
type LineRedactor struct {
	mu      sync.Mutex
	redact  func([]byte) []byte
	emit    func(stream string, text []byte)
	pending map[string][]byte
	max     int
}

// NewLineRedactor returns a redactor that calls emit with redacted lines.
// A line longer than 64 KiB is passed on in pieces.
func NewLineRedactor(redact func([]byte) []byte, emit func(stream string, text []byte)) *LineRedactor {
	return &LineRedactor{redact: redact, emit: emit, pending: map[string][]byte{}, max: 64 << 10}
}

// Write takes a chunk of a stream.
func (l *LineRedactor) Write(stream string, p []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	buf := append(l.pending[stream], p...)
	cut := bytes.LastIndexByte(buf, '\n') + 1
	if cut == 0 && len(buf) >= l.max {
		cut = len(buf)
	}
	if cut > 0 {
		l.emit(stream, l.redact(buf[:cut]))
		buf = append([]byte(nil), buf[cut:]...)
	}
	l.pending[stream] = buf
}

// Flush passes on what is left of every stream.
func (l *LineRedactor) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for stream, buf := range l.pending {
		if len(buf) > 0 {
			l.emit(stream, l.redact(buf))
		}
		delete(l.pending, stream)
	}
}

// lineSplitter hands on whole lines of a stream (at most 64 KiB each).
type lineSplitter struct {
	buf  []byte
	emit func(line []byte)
}

func (l *lineSplitter) write(p []byte) {
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			if len(l.buf) >= 64<<10 {
				l.emit(l.buf)
				l.buf = l.buf[:0]
			}
			return
		}
		l.emit(l.buf[:i+1])
		l.buf = l.buf[i+1:]
	}
}

func (l *lineSplitter) flush() {
	if len(l.buf) > 0 {
		l.emit(l.buf)
		l.buf = nil
	}
}
