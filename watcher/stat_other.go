//go:build !linux

package watcher

import (
	"os"
	"time"
)

func statEntry(_ int, e os.DirEntry, now time.Time) (fileStat, bool) {
	info, err := e.Info()
	if err != nil {
		return fileStat{}, false
	}
	return statOf(info, now), true
}
