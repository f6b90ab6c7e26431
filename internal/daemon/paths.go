package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// SocketPath returns where the user's daemon listens: AISBX_SOCKET when set,
// else $XDG_RUNTIME_DIR/aisbx/aisbxd.sock, else the user cache dir. Unix
// socket paths are limited to 108 bytes, so a long cache dir falls back to
// /tmp/aisbx-<uid>/.
func SocketPath() string {
	if p := os.Getenv("AISBX_SOCKET"); p != "" {
		return p
	}
	var dir string
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		dir = filepath.Join(rt, "aisbx")
	} else if cache, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cache, "aisbx")
	} else {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("aisbx-%d", os.Getuid()))
	}
	p := filepath.Join(dir, "aisbxd.sock")
	if len(p) > 100 {
		p = filepath.Join(os.TempDir(), fmt.Sprintf("aisbx-%d", os.Getuid()), "aisbxd.sock")
	}
	return p
}

// ensureDir creates the socket's directory, private to the user, and
// refuses one owned by somebody else.
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating socket dir: %w", err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("socket dir: %w", err)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("socket dir %s is owned by uid %d, not by you (uid %d): set AISBX_SOCKET to a path of your own", dir, st.Uid, os.Getuid())
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("making socket dir private: %w", err)
		}
	}
	return nil
}
