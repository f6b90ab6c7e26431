package watcher

import (
	"log/slog"
	"time"

	"github.com/aisbx/aisbx/internal/ignore"
)

// Defaults for Options fields left zero.
const (
	DefaultDebounce     = 100 * time.Millisecond
	DefaultMaxDelay     = time.Second
	DefaultPollInterval = 2 * time.Second
	// DefaultRearmInterval: polled directories are offered back to inotify
	// at most this often.
	DefaultRearmInterval = 30 * time.Second
)

// Options tune a Watcher. The zero value is usable.
type Options struct {
	// Debounce is the settle window: a batch goes out once no event arrived
	// for this long. Default 100 ms.
	Debounce time.Duration
	// MaxDelay bounds how long a steady stream of events can hold a batch
	// back. Default 1 s.
	MaxDelay time.Duration
	// Ignore are extra patterns in gitignore syntax, relative to the root
	// (aisbx.toml's ignore list). Used only when Matcher is nil.
	Ignore []string
	// Matcher decides which paths are ignored. Nil means
	// ignore.NewMatcher(root, Ignore...). The watcher invalidates its cache
	// when a .gitignore changes.
	Matcher *ignore.Matcher
	// MaxWatches caps the inotify watches (one per directory) this watcher
	// may hold; 0 means only the kernel's limit applies. Directories beyond
	// the cap are polled.
	MaxWatches int
	// PollInterval is how often polled directories are rescanned. Default 2 s.
	PollInterval time.Duration
	// RearmInterval is how often polled directories are offered back to
	// inotify, in case watches freed up. Default 30 s.
	RearmInterval time.Duration
	// OnBatch, when set, receives every batch on the watcher's own goroutine
	// instead of the Events channel. It must not block for long: events
	// queue up behind it. A panic in it is recovered and logged.
	OnBatch func([]Event)
	// Logger receives diagnostics; nil means slog.Default().
	Logger *slog.Logger

	// hold, in tests, keeps the event loop from reading until closed, so a
	// test can overflow the kernel queue.
	hold <-chan struct{}
	// probe, in tests, runs functions on the event loop, where the tree can
	// be read without a race.
	probe <-chan func()
}

func (o Options) withDefaults() Options {
	if o.Debounce <= 0 {
		o.Debounce = DefaultDebounce
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = DefaultMaxDelay
	}
	if o.MaxDelay < o.Debounce {
		o.MaxDelay = o.Debounce
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.RearmInterval <= 0 {
		o.RearmInterval = DefaultRearmInterval
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}
