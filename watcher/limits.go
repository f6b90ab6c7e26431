package watcher

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Limits are the kernel's inotify limits for this user, read from
// /proc/sys/fs/inotify. Zero means unknown (not Linux, or unreadable).
type Limits struct {
	MaxUserWatches   int // watches per user: one per watched directory
	MaxUserInstances int // inotify instances per user: one per Watcher
	MaxQueuedEvents  int // events queued per instance before an overflow
}

// ReadLimits reads the inotify limits; `aisbxd doctor` shows them next to
// the number of directories a workspace needs.
func ReadLimits() (Limits, error) {
	var l Limits
	var errs []string
	for _, f := range []struct {
		name string
		dst  *int
	}{
		{"max_user_watches", &l.MaxUserWatches},
		{"max_user_instances", &l.MaxUserInstances},
		{"max_queued_events", &l.MaxQueuedEvents},
	} {
		n, err := readProcInt("/proc/sys/fs/inotify/" + f.name)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		*f.dst = n
	}
	if len(errs) > 0 {
		return l, fmt.Errorf("reading inotify limits: %s", strings.Join(errs, "; "))
	}
	return l, nil
}

func readProcInt(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}
