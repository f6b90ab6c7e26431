package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// workspaceRoot returns the workspace a path belongs to: the nearest
// directory at or above it holding aisbx.toml, else the git top level, else
// the directory itself.
func workspaceRoot(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	dir := abs
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		dir = filepath.Dir(abs)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "aisbx.toml")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	if err == nil {
		if top := strings.TrimSpace(string(out)); top != "" {
			return top
		}
	}
	return dir
}
