package linters

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// maxOutput bounds what we keep of a tool's stdout or stderr: a runaway
// linter must not take the daemon's memory with it.
const maxOutput = 32 << 20

// invocation is one run of a tool.
type invocation struct {
	Bin   string
	Args  []string
	Dir   string
	Stdin []byte // nil: no stdin
}

// outcome is what a tool run produced. ExitCode is -1 when the process did
// not exit normally.
type outcome struct {
	Stdout, Stderr []byte
	ExitCode       int
}

// run runs inv with timeout. It returns an error only when the tool could
// not be started or did not finish; a non-zero exit is the caller's to judge,
// since linters exit 1 when they find something.
func run(ctx context.Context, timeout time.Duration, inv invocation) (outcome, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, inv.Bin, inv.Args...)
	cmd.Dir = inv.Dir
	killGroup(cmd)
	cmd.WaitDelay = time.Second // do not hang on pipes held open by grandchildren
	if inv.Stdin != nil {
		cmd.Stdin = bytes.NewReader(inv.Stdin)
	}
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	out := outcome{Stdout: stdout.buf.Bytes(), Stderr: stderr.buf.Bytes(), ExitCode: -1}
	if cmd.ProcessState != nil {
		out.ExitCode = cmd.ProcessState.ExitCode()
	}
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return out, fmt.Errorf("timed out after %v", timeout)
		}
		return out, ctx.Err()
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return out, fmt.Errorf("running %s: %w", inv.Bin, err)
	}
	if stdout.truncated {
		return out, fmt.Errorf("output larger than %d MiB", maxOutput>>20)
	}
	return out, nil
}

// failure describes an unexpected exit, with the first lines of stderr,
// which is where tools explain themselves.
func failure(o outcome) error {
	msg := strings.TrimSpace(string(o.Stderr))
	if msg == "" {
		msg = strings.TrimSpace(string(o.Stdout))
	}
	lines := strings.SplitN(msg, "\n", 6)
	if len(lines) > 5 {
		lines = append(lines[:5], "…")
	}
	msg = strings.Join(lines, "\n")
	if msg == "" {
		return fmt.Errorf("exit status %d", o.ExitCode)
	}
	return fmt.Errorf("exit status %d: %s", o.ExitCode, msg)
}

// capped is a bytes.Buffer that stops growing at maxOutput.
type capped struct {
	buf       bytes.Buffer
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.buf.Len(); len(p) > room {
		c.truncated = true
		c.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return c.buf.Write(p)
}
