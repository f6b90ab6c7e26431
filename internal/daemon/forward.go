package daemon

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aisbx/aisbx/internal/frame"
)

// Forward relays LSP frames between an editor (in, out) and the daemon
// connection until the session ends, and returns the exit code the editor
// should see: 0 after shutdown then exit, 1 after exit alone or when the
// editor went away, and 1 with a window/showMessage to the editor when the
// daemon died mid-session, so that the editor restarts the server.
//
// It relays whole frames, not bytes, so that its own message can never be
// spliced into the middle of one of the daemon's.
//
// A daemon can die between accepting the connection and answering: its idle
// timeout fires, or it is being killed, while a new editor connects. Until
// the daemon's first frame arrives the session holds no state, so Forward
// keeps what the editor sent and, when the connection ends that early and
// redial is not nil, replays it on a fresh connection (redial starts a
// daemon when none runs). After the first answer a lost daemon is final.
func Forward(conn net.Conn, redial func() (net.Conn, error), in io.Reader, out io.Writer, log *slog.Logger) int {
	f := &forwarder{conn: conn, redial: redial, editor: frame.NewWriter(out), log: log}
	return f.run(in)
}

// maxReplay bounds what Forward keeps for a replay: an initialize and the
// didOpens that follow it, not a session's worth.
const maxReplay = 4 << 20

// redials bounds the replays of one session.
const redials = 3

type forwarder struct {
	redial func() (net.Conn, error)
	editor *frame.Writer // to the editor; written by the daemon reader only
	log    *slog.Logger

	mu       sync.Mutex
	conn     net.Conn
	dw       *frame.Writer
	answered bool     // the daemon has sent a frame: no replay any more
	replay   [][]byte // what the editor sent before the first answer
	size     int

	shutdown, exited atomic.Bool
}

func (f *forwarder) run(in io.Reader) int {
	f.dw = frame.NewWriter(f.conn)
	editorGone := make(chan struct{})
	go func() {
		defer close(editorGone)
		f.fromEditor(in)
	}()

	var derr error
	for attempt := 0; ; attempt++ {
		daemonGone := make(chan error, 1)
		conn := f.current()
		go func() { daemonGone <- f.fromDaemon(conn) }()
		select {
		case derr = <-daemonGone:
		case <-editorGone:
			// Give the daemon a moment to answer what was in flight and close.
			select {
			case derr = <-daemonGone:
			case <-time.After(2 * time.Second):
			}
		}
		conn.Close()
		if attempt < redials && f.reconnect(derr, editorGone) {
			continue
		}
		break
	}
	switch {
	case f.exited.Load() && f.shutdown.Load():
		return 0
	case f.exited.Load():
		return 1
	}
	select {
	case <-editorGone:
		return 1 // the editor left without exit
	default:
	}
	f.log.Error("the daemon connection ended mid-session", "err", derr)
	msg, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "method": "window/showMessage",
		"params": map[string]any{"type": 1, "message": "aisbx: the aisbx daemon stopped unexpectedly. The language server will exit; restart it to start a new daemon (`aisbxd status` and the daemon log say more)."},
	})
	_, _ = f.editor.Write(msg)
	return 1
}

func (f *forwarder) current() net.Conn {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.conn
}

// fromEditor copies the editor's frames to the daemon, keeping them for a
// replay until the daemon answers.
func (f *forwarder) fromEditor(in io.Reader) {
	r := frame.NewReader(in)
	for {
		body, skipped, err := r.Read()
		if skipped != nil {
			f.log.Warn("editor sent malformed input", "reason", skipped.Reason)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				f.log.Warn("reading from editor", "err", err)
			}
			break
		}
		switch method := peekMethod(body); method {
		case "shutdown":
			f.shutdown.Store(true)
		case "exit":
			f.exited.Store(true)
		}
		f.mu.Lock()
		if !f.answered && f.redial != nil && f.size+len(body) <= maxReplay {
			f.replay = append(f.replay, body)
			f.size += len(body)
		} else if !f.answered {
			f.redial = nil // too much to replay: a lost daemon is final
		}
		_, err = f.dw.Write(body)
		replayable := !f.answered && f.redial != nil
		f.mu.Unlock()
		if err != nil && !replayable {
			f.log.Warn("writing to daemon", "err", err)
			return
		}
	}
	// The editor closed its side: let the daemon end the session.
	f.mu.Lock()
	if uc, ok := f.conn.(interface{ CloseWrite() error }); ok {
		_ = uc.CloseWrite()
	}
	f.mu.Unlock()
}

// fromDaemon copies the daemon's frames to the editor until conn ends.
func (f *forwarder) fromDaemon(conn net.Conn) error {
	r := frame.NewReader(conn)
	for {
		body, _, err := r.Read()
		if err != nil {
			return err
		}
		f.mu.Lock()
		if !f.answered {
			f.answered, f.replay, f.size = true, nil, 0
		}
		f.mu.Unlock()
		if _, err := f.editor.Write(body); err != nil {
			return err
		}
	}
}

// reconnect replays the editor's frames on a new connection when the daemon
// went away before answering anything, and reports whether it did.
func (f *forwarder) reconnect(cause error, editorGone <-chan struct{}) bool {
	select {
	case <-editorGone:
		return false
	default:
	}
	if f.exited.Load() {
		return false // the editor ended the session itself
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.answered || f.redial == nil {
		return false
	}
	f.log.Warn("the daemon closed the connection before answering; reconnecting", "err", cause)
	conn, err := f.redial()
	if err != nil {
		f.log.Error("reconnecting to the daemon", "err", err)
		return false
	}
	dw := frame.NewWriter(conn)
	for _, body := range f.replay {
		if _, err := dw.Write(body); err != nil {
			f.log.Error("replaying to the new daemon", "err", err)
			conn.Close()
			return false
		}
	}
	f.conn, f.dw = conn, dw
	return true
}

// peekMethod returns a message's method without decoding the rest.
func peekMethod(body []byte) string {
	var m struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(body, &m)
	return m.Method
}
