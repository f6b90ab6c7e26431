package watcher

import (
	"fmt"
	"strings"
	"time"
)

// Status describes how well a Watcher is covering its root.
type Status struct {
	Root string
	// Watches is the number of directories watched through inotify.
	Watches int
	// Polled is the number of directories rescanned every PollInterval
	// because no watch could be added for them.
	Polled int
	// Files is the number of files the watcher knows of.
	Files int
	// Overflows counts kernel queue overflows; each one was followed by a
	// full rescan, so no change was lost, only delayed.
	Overflows    int
	LastOverflow time.Time
	// Degraded is true when some directories are polled instead of watched,
	// or when the event queue has overflowed. Reason says why and what to do.
	Degraded bool
	Reason   string
}

func (s *Status) refresh(limits Limits, interval time.Duration, noInotify string) {
	var reasons []string
	if noInotify != "" {
		reasons = append(reasons, noInotify)
	}
	if s.Polled > 0 {
		r := fmt.Sprintf("the inotify watch limit was reached: %d directories are polled every %s instead of watched", s.Polled, interval)
		if limits.MaxUserWatches > 0 {
			r += fmt.Sprintf("; raise fs.inotify.max_user_watches (now %d), e.g. sysctl -w fs.inotify.max_user_watches=524288", limits.MaxUserWatches)
		}
		reasons = append(reasons, r)
	}
	if s.Overflows > 0 {
		r := fmt.Sprintf("the inotify event queue overflowed %d time(s), last at %s; the workspace was rescanned each time", s.Overflows, s.LastOverflow.Format(time.TimeOnly))
		if limits.MaxQueuedEvents > 0 {
			r += fmt.Sprintf("; raise fs.inotify.max_queued_events (now %d) if this repeats", limits.MaxQueuedEvents)
		}
		reasons = append(reasons, r)
	}
	s.Degraded = len(reasons) > 0
	s.Reason = strings.Join(reasons, "; ")
}
