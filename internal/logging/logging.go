// Package logging sets up log/slog for aisbxd: to a file under the user
// cache dir by default (stdout belongs to the LSP stream), or to stderr with
// --log-file=-. Standard library only; read Open first.
package logging

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// maxSize is when a log file is rotated to <name>.1 on open.
const maxSize = 10 << 20

// Dir returns the directory for aisbx's logs and caches.
func Dir() string {
	if d := os.Getenv("AISBX_CACHE_DIR"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		d = os.TempDir()
	}
	return filepath.Join(d, "aisbx")
}

// DefaultFile is the log file of a mode ("daemon", "serve", "cli").
func DefaultFile(mode string) string { return filepath.Join(Dir(), mode+".log") }

// ParseLevel reads debug, info, warn or error.
func ParseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.TrimSpace(s))); err != nil {
		return 0, fmt.Errorf("invalid log level %q (want debug, info, warn or error)", s)
	}
	return l, nil
}

// Open returns a logger writing to path ("-" for stderr) at level, and a
// closer for the file.
func Open(path string, level slog.Level, stderr io.Writer) (*slog.Logger, io.Closer, error) {
	var w io.Writer = stderr
	var closer io.Closer = io.NopCloser(nil)
	if path != "-" {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, nil, fmt.Errorf("creating log dir: %w", err)
		}
		if fi, err := os.Stat(path); err == nil && fi.Size() > maxSize {
			_ = os.Rename(path, path+".1")
		}
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("opening log file: %w", err)
		}
		w, closer = f, f
	}
	h := slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})
	return slog.New(h).With("pid", os.Getpid()), closer, nil
}
