package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os/exec"
	"sync"
	"time"
)

// sshDialer reaches an engine over ssh the way the docker CLI does: each
// connection is `ssh HOST docker system dial-stdio`, whose stdio carries the
// API. Keys and known_hosts come from the user's ssh config.
func sshDialer(u *url.URL) (func(ctx context.Context, network, addr string) (net.Conn, error), error) {
	if u.Host == "" {
		return nil, fmt.Errorf("DOCKER_HOST %q: ssh needs a host", u.String())
	}
	if u.Path != "" && u.Path != "/" {
		return nil, fmt.Errorf("DOCKER_HOST %q: an ssh host takes no path", u.String())
	}
	args := []string{"-o", "ConnectTimeout=30", "-T"}
	if u.Port() != "" {
		args = append(args, "-p", u.Port())
	}
	target := u.Hostname()
	if u.User != nil {
		target = u.User.Username() + "@" + target
	}
	args = append(args, "--", target, "docker", "system", "dial-stdio")
	return func(ctx context.Context, _, _ string) (net.Conn, error) {
		return dialCommand(ctx, "ssh", args...)
	}, nil
}

// dialCommand starts name args and returns a net.Conn over its stdin and
// stdout. The process lives as long as the connection; its stderr is kept
// for error messages.
func dialCommand(ctx context.Context, name string, args ...string) (net.Conn, error) {
	// The dial context ends when the dial does, not the connection, so the
	// process must not be tied to it.
	cmd := exec.CommandContext(context.WithoutCancel(ctx), name, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	c := &cmdConn{cmd: cmd, stdin: stdin, stdout: stdout}
	cmd.Stderr = &c.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	return c, nil
}

type cmdConn struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr lockedBuffer

	closeOnce sync.Once
}

func (c *cmdConn) Read(p []byte) (int, error) {
	n, err := c.stdout.Read(p)
	if err == io.EOF && c.stderr.Len() > 0 {
		return n, fmt.Errorf("%s: %s: %w", c.cmd.Path, bytes.TrimSpace(c.stderr.Bytes()), io.EOF)
	}
	return n, err
}

func (c *cmdConn) Write(p []byte) (int, error) { return c.stdin.Write(p) }

// CloseWrite half-closes the connection, which exec stdin needs.
func (c *cmdConn) CloseWrite() error { return c.stdin.Close() }

func (c *cmdConn) Close() error {
	c.closeOnce.Do(func() {
		_ = c.stdin.Close()
		if c.cmd.Process != nil {
			_ = c.cmd.Process.Kill()
		}
		_ = c.cmd.Wait()
	})
	return nil
}

func (c *cmdConn) LocalAddr() net.Addr                { return cmdAddr{} }
func (c *cmdConn) RemoteAddr() net.Addr               { return cmdAddr{} }
func (c *cmdConn) SetDeadline(t time.Time) error      { return nil }
func (c *cmdConn) SetReadDeadline(t time.Time) error  { return nil }
func (c *cmdConn) SetWriteDeadline(t time.Time) error { return nil }

type cmdAddr struct{}

func (cmdAddr) Network() string { return "cmd" }
func (cmdAddr) String() string  { return "cmd" }

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() > 64<<10 {
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *lockedBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.buf.Bytes()...)
}
