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
