// Package testlog gives tests a *slog.Logger whose output is shown only when
// the test fails, so passing runs stay quiet and failing ones keep the
// daemon's side of the story.
package testlog

import (
	"bytes"
	"log/slog"
	"sync"
	"testing"
)

// Buffer is a log sink safe for concurrent writers that a test can read
// (String) while they write.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// New returns a debug-level logger for t.
func New(t testing.TB) *slog.Logger {
	b := &Buffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", b.String())
		}
	})
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
