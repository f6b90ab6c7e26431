package vulndb

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
)

// DirEnv names the environment variable that moves the store.
const DirEnv = "AISBX_VULNDB_DIR"

// DefaultDir returns where the store lives: $AISBX_VULNDB_DIR, else
// <user cache dir>/aisbx/vulndb. getenv is the process environment (tests
// pass their own); nil means os.Getenv.
func DefaultDir(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv(DirEnv); d != "" {
		return d, nil
	}
	// os.UserCacheDir reads the real environment; on Linux the same rule
	// is applied to getenv so that tests can move it.
	base := ""
	if runtime.GOOS == "linux" {
		base = getenv("XDG_CACHE_HOME")
	}
	if base == "" && runtime.GOOS == "linux" {
		if home := getenv("HOME"); home != "" {
			base = filepath.Join(home, ".cache")
		}
	}
	if base == "" {
		var err error
		if base, err = os.UserCacheDir(); err != nil {
			return "", errors.New("vulndb: no cache directory (set HOME, XDG_CACHE_HOME or " + DirEnv + ")")
		}
	}
	return filepath.Join(base, "aisbx", "vulndb"), nil
}
