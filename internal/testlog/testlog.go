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

type buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// New returns a debug-level logger for t.
func New(t testing.TB) *slog.Logger {
	b := &buffer{}
	t.Cleanup(func() {
		if t.Failed() {
			b.mu.Lock()
			t.Logf("server log:\n%s", b.buf.String())
			b.mu.Unlock()
		}
	})
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
