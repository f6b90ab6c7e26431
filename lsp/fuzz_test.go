package lsp_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/aisbx/aisbx/internal/lsptest"
	"github.com/aisbx/aisbx/internal/workspace"
	"github.com/aisbx/aisbx/lsp"
)

// declaredLength finds Content-Length values in raw input.
var declaredLength = regexp.MustCompile(`(?i)content-length\s*:\s*(\d{1,9})`)

// padding returns what completes any body raw input may have opened: as
// many bytes as the largest length it declares, in blank lines, which the
// reader skips when it is not inside a body. ok is false when a declared
// body is too large to fill in a fuzz run: such input holds the stream by
// design (the frame tests cover it).
func padding(data []byte) (pad []byte, ok bool) {
	n := 0
	for _, m := range declaredLength.FindAllSubmatch(data, -1) {
		if v, err := strconv.Atoi(string(m[1])); err == nil {
			n = max(n, v)
		}
	}
	if n > 1<<20 {
		return nil, false
	}
	return bytes.Repeat([]byte("\r\n"), n/2+1), true
}

// FuzzDispatch feeds arbitrary bytes to an initialized session, framed and
// unframed, and checks that the session survives: it must still answer a
// well-formed request afterwards. CI runs it briefly (make fuzz).
func FuzzDispatch(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///x.py","text":"eval(x)","version":1}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///x.py","version":2},"contentChanges":[{"range":{"start":{"line":9,"character":0},"end":{"line":0,"character":0}},"text":"x"}]}}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1.5}}`,
		`{"jsonrpc":"2.0","id":[1],"method":"shutdown"}`,
		`{"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"nope","arguments":[null]}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"initialize"}]`,
		"\x00\x01Content-Length: 3\r\n\r\n{}}",
	} {
		f.Add([]byte(seed), true)
	}
	logger := slog.New(slog.DiscardHandler)
	f.Fuzz(func(t *testing.T, data []byte, framed bool) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		reg := workspace.NewRegistry(ctx, workspace.Options{Logger: logger})
		defer reg.Close()
		server, client := net.Pipe()
		done := make(chan int, 1)
		go func() { done <- lsp.Serve(ctx, server, lsp.Options{Registry: reg, Logger: logger}) }()
		c := lsptest.New(client)
		defer c.Close()
		if _, err := c.Initialize(ctx); err != nil {
			t.Fatalf("initialize: %v", err)
		}
		if framed {
			c.WriteFrame(data)
		} else {
			pad, ok := padding(data)
			if !ok {
				t.Skip("declares a body too large to fill")
			}
			c.WriteRaw(data)
			// Unframed bytes may leave the reader inside a header or a body:
			// end it with a blank line and padding so the next frame resyncs.
			c.WriteRaw([]byte("\r\n\r\n"))
			c.WriteRaw(pad)
		}
		err := c.Call(ctx, "workspace/executeCommand", map[string]any{"command": "aisbx.reloadConfig"}, nil)
		select {
		case <-done:
			return // the input was an exit notification: a clean end
		default:
		}
		if err != nil && ctx.Err() == nil {
			// A raw Content-Length may legitimately swallow our request as its
			// body; only a dead session is a failure.
			if err2 := c.Call(ctx, "workspace/executeCommand", map[string]any{"command": "aisbx.reloadConfig"}, nil); err2 != nil {
				t.Fatalf("session stopped answering after %q: %v / %v", data, err, err2)
			}
		}
	})
}
