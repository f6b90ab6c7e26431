package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/aisbx/aisbx/internal/frame"
)

// ErrNotRunning means no daemon answers on the socket.
var ErrNotRunning = errors.New("no aisbx daemon is running")

// Dial connects to a running daemon.
func Dial(ctx context.Context, socket string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return nil, fmt.Errorf("%w at %s: %v", ErrNotRunning, socket, err)
	}
	return c, nil
}

// StartOptions says how to start a daemon when none runs.
type StartOptions struct {
	// Exe is the aisbxd binary; "" means this process's executable.
	Exe string
	// Args are extra arguments for `aisbxd daemon` (log flags).
	Args []string
	// Wait bounds how long to wait for the new daemon to answer.
	Wait time.Duration
}

// Connect dials the daemon, starting one in the background when none answers
// and retrying until it does.
func Connect(ctx context.Context, socket string, start StartOptions) (net.Conn, error) {
	if c, err := Dial(ctx, socket); err == nil {
		return c, nil
	}
	if err := startDaemon(socket, start); err != nil {
		return nil, err
	}
	wait := start.Wait
	if wait == 0 {
		wait = 10 * time.Second
	}
	deadline := time.Now().Add(wait)
	delay := 5 * time.Millisecond
	for {
		c, err := Dial(ctx, socket)
		if err == nil {
			return c, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("started a daemon but it did not answer on %s within %v (see its log): %w", socket, wait, err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay):
		}
		delay = min(delay*2, 100*time.Millisecond)
	}
}

// startDaemon launches `aisbxd daemon` detached from this process: its own
// session, no terminal, stdio to /dev/null (it logs to its file). If another
// client starts one at the same moment, the lock lets one win and the other
// exits at once.
func startDaemon(socket string, start StartOptions) error {
	exe := start.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return fmt.Errorf("finding the aisbxd binary to start the daemon: %w", err)
		}
	}
	if err := ensureDir(dirOf(socket)); err != nil {
		return err
	}
	args := append([]string{"daemon", "--socket", socket}, start.Args...)
	cmd := exec.Command(exe, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer devnull.Close()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, devnull, devnull
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s daemon: %w", exe, err)
	}
	go cmd.Wait() // reap it if it exits while we live (lost a lock race)
	return nil
}

func dirOf(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[:i]
		}
	}
	return "."
}

var requestSeq atomic.Int64

// Request sends one aisbx/* request to the daemon and decodes the result.
// notify, when non-nil, receives the notifications the daemon sends while
// it works (streamed output).
func Request(ctx context.Context, conn net.Conn, method string, params, result any, notify func(method string, params json.RawMessage)) error {
	id := requestSeq.Add(1)
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		return err
	}
	if _, err := frame.NewWriter(conn).Write(body); err != nil {
		return fmt.Errorf("sending %s: %w", method, err)
	}
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()
	r := frame.NewReader(conn)
	for {
		b, _, err := r.Read()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("reading the answer to %s: %w", method, err)
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			continue
		}
		if m.Method != "" {
			if notify != nil && len(m.ID) == 0 {
				notify(m.Method, m.Params)
			}
			continue
		}
		if string(m.ID) != strconv.FormatInt(id, 10) {
			continue
		}
		if m.Error != nil {
			return fmt.Errorf("%s: %s (code %d)", method, m.Error.Message, m.Error.Code)
		}
		if result != nil && len(m.Result) > 0 {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	}
}

// Call dials the daemon (without starting one) and sends one request.
func Call(ctx context.Context, socket, method string, params, result any) error {
	conn, err := Dial(ctx, socket)
	if err != nil {
		return err
	}
	defer conn.Close()
	return Request(ctx, conn, method, params, result, nil)
}
