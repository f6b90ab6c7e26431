package daemon

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ErrAlreadyRunning means another daemon holds the lock for this socket.
var ErrAlreadyRunning = errors.New("an aisbx daemon is already running for this socket")

// lock is an flock on <socket>.lock, held for the daemon's lifetime. The
// kernel drops it when the process dies, so a crashed daemon never blocks
// the next one.
type lock struct{ f *os.File }

func acquireLock(socket string) (*lock, error) {
	f, err := os.OpenFile(socket+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrAlreadyRunning
		}
		return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return &lock{f: f}, nil
}

func (l *lock) release() {
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
}

// LockHolder returns the pid written in the lock file, or 0.
func LockHolder(socket string) int {
	b, err := os.ReadFile(socket + ".lock")
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}
