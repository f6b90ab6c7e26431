package daemon

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
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
func Forward(conn net.Conn, in io.Reader, out io.Writer, log *slog.Logger) int {
	w := frame.NewWriter(out)
	var shutdown, exited atomic.Bool
	editorGone := make(chan struct{})

	go func() {
		defer close(editorGone)
		r := frame.NewReader(in)
		dw := frame.NewWriter(conn)
		for {
			body, skipped, err := r.Read()
			if skipped != nil {
				log.Warn("editor sent malformed input", "reason", skipped.Reason)
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					log.Warn("reading from editor", "err", err)
				}
				break
			}
			switch method := peekMethod(body); method {
			case "shutdown":
				shutdown.Store(true)
			case "exit":
				exited.Store(true)
			}
			if _, err := dw.Write(body); err != nil {
				log.Warn("writing to daemon", "err", err)
				return
			}
		}
		// The editor closed its side: let the daemon end the session.
		if uc, ok := conn.(interface{ CloseWrite() error }); ok {
			_ = uc.CloseWrite()
		}
	}()

	daemonGone := make(chan error, 1)
	go func() {
		r := frame.NewReader(conn)
		for {
			body, _, err := r.Read()
			if err != nil {
				daemonGone <- err
				return
			}
			if _, err := w.Write(body); err != nil {
				daemonGone <- err
				return
			}
		}
	}()

	var derr error
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
	switch {
	case exited.Load() && shutdown.Load():
		return 0
	case exited.Load():
		return 1
	}
	select {
	case <-editorGone:
		return 1 // the editor left without exit
	default:
	}
	log.Error("the daemon connection ended mid-session", "err", derr)
	msg, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "method": "window/showMessage",
		"params": map[string]any{"type": 1, "message": "aisbx: the aisbx daemon stopped unexpectedly. The language server will exit; restart it to start a new daemon (`aisbxd status` and the daemon log say more)."},
	})
	_, _ = w.Write(msg)
	return 1
}

// peekMethod returns a message's method without decoding the rest.
func peekMethod(body []byte) string {
	var m struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(body, &m)
	return m.Method
}
