package daemon

import (
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/internal/frame"
	"github.com/aisbx/aisbx/internal/testlog"
)

// listen opens a Unix socket in a temporary directory, as the daemon does.
func listen(t *testing.T, name string) (net.Listener, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln, path
}

// dyingDaemon accepts one connection and closes it without answering: a
// daemon whose idle timeout fired, or that was killed, as an editor came.
func dyingDaemon(t *testing.T, ln net.Listener) {
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		c.Close()
	}()
}

// answeringDaemon answers every request it reads with its id, and reports
// the methods it saw in order.
func answeringDaemon(t *testing.T, ln net.Listener) <-chan string {
	seen := make(chan string, 16)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		r, w := frame.NewReader(c), frame.NewWriter(c)
		for {
			body, _, err := r.Read()
			if err != nil {
				close(seen)
				return
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			_ = json.Unmarshal(body, &m)
			seen <- m.Method
			if m.ID != nil {
				resp, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"from": ln.Addr().String()}})
				_, _ = w.Write(resp)
			}
		}
	}()
	return seen
}

func dial(t *testing.T, path string) net.Conn {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// editorPipes are the editor's side of a forwarder: what it writes goes to
// Forward's input, what Forward writes comes back on out.
type editorPipes struct {
	toServer   *io.PipeWriter
	fromServer *frame.Reader
}

func startForward(t *testing.T, conn net.Conn, redial func() (net.Conn, error)) (editorPipes, <-chan int, *testlog.Buffer) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	logs := &testlog.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	done := make(chan int, 1)
	go func() {
		done <- Forward(conn, redial, inR, outW, log)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return editorPipes{toServer: inW, fromServer: frame.NewReader(outR)}, done, logs
}

// exitCode waits for Forward to return and gives its exit code.
func exitCode(t *testing.T, done <-chan int, after string) int {
	t.Helper()
	select {
	case code := <-done:
		return code
	case <-time.After(10 * time.Second):
		t.Fatalf("Forward did not return after %s", after)
		return 0
	}
}

func (e editorPipes) send(t *testing.T, msg string) {
	t.Helper()
	if _, err := frame.NewWriter(e.toServer).Write([]byte(msg)); err != nil {
		t.Fatalf("editor write: %v", err)
	}
}

func (e editorPipes) read(t *testing.T) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		body, _, err := e.fromServer.Read()
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- string(body)
	}()
	select {
	case s := <-got:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("no frame from the forwarder within 10s")
		return ""
	}
}

// A daemon that dies before answering costs the editor nothing: the
// forwarder replays initialize and the didOpen after it on a new daemon,
// in order, and the session goes on there.
func TestForwardReplaysWhenTheDaemonDiesBeforeAnswering(t *testing.T) {
	oldLn, oldPath := listen(t, "old.sock")
	newLn, newPath := listen(t, "new.sock")
	dyingDaemon(t, oldLn)
	seen := answeringDaemon(t, newLn)
	redials := 0
	redial := func() (net.Conn, error) {
		redials++
		return net.Dial("unix", newPath)
	}

	ed, done, logs := startForward(t, dial(t, oldPath), redial)
	ed.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	ed.send(t, `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{}}`)

	resp := ed.read(t)
	if !strings.Contains(resp, `"id":1`) || !strings.Contains(resp, "new.sock") {
		t.Fatalf("initialize answered with %s; want the new daemon's answer to id 1", resp)
	}
	for _, want := range []string{"initialize", "textDocument/didOpen"} {
		select {
		case got := <-seen:
			if got != want {
				t.Fatalf("new daemon saw %q; want %q next", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("new daemon never saw %s", want)
		}
	}
	if redials != 1 {
		t.Errorf("redialled %d times; want 1", redials)
	}
	if !strings.Contains(logs.String(), "reconnecting") {
		t.Errorf("the reconnect was not logged:\n%s", logs)
	}

	ed.send(t, `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	if resp := ed.read(t); !strings.Contains(resp, `"id":2`) {
		t.Fatalf("shutdown answered with %s", resp)
	}
	ed.send(t, `{"jsonrpc":"2.0","method":"exit"}`)
	ed.toServer.Close()
	if code := exitCode(t, done, "exit"); code != 0 {
		t.Errorf("exit code %d after shutdown and exit; want 0", code)
	}
}

// Once the daemon has answered, the session lives in it: losing it then
// is final, and the editor is told so rather than silently replayed into
// a daemon that never saw its documents.
func TestForwardDoesNotReplayAfterAnAnswer(t *testing.T) {
	ln, path := listen(t, "d.sock")
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		r, w := frame.NewReader(c), frame.NewWriter(c)
		if _, _, err := r.Read(); err == nil {
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
		}
		c.Close() // dies after answering initialize
	}()
	redials := 0
	redial := func() (net.Conn, error) { redials++; return nil, io.ErrUnexpectedEOF }

	ed, done, _ := startForward(t, dial(t, path), redial)
	ed.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	if resp := ed.read(t); !strings.Contains(resp, `"id":1`) {
		t.Fatalf("initialize answered with %s", resp)
	}
	if msg := ed.read(t); !strings.Contains(msg, "window/showMessage") || !strings.Contains(msg, "stopped unexpectedly") {
		t.Fatalf("editor got %s; want a showMessage that the daemon stopped", msg)
	}
	if code := exitCode(t, done, "the daemon died"); code != 1 {
		t.Errorf("exit code %d; want 1 so that the editor restarts the server", code)
	}
	if redials != 0 {
		t.Errorf("redialled %d times after an answer; want 0", redials)
	}
}
