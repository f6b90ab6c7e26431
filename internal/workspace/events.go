package workspace

import (
	"sync"

	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/internal/provenance"
	"github.com/aisbx/aisbx/internal/runner"
	"github.com/aisbx/aisbx/watcher"
)

// EventKind says what changed in a workspace.
type EventKind int

const (
	// EventConfig: the config was (re)loaded. Problems lists what is wrong
	// with it; ConfigApplied is false when the last good config stayed.
	EventConfig EventKind = iota + 1
	// EventTests: a test run finished. Outcome is the run; Files are the
	// absolute paths whose failing-test diagnostics changed.
	EventTests
	// EventFindings: a file was checked in the background (an agent wrote
	// it); Files holds it. Editors that do not have it open show them.
	EventFindings
	// EventAIEdit: an AI edit was recorded (Edit); review markers change.
	EventAIEdit
	// EventWatch: watching degraded or recovered (Watch says how).
	EventWatch
	// EventRunStarted: a test run began (Title says which).
	EventRunStarted
)

// Event is something the users of a workspace may want to react to.
type Event struct {
	Kind          EventKind
	Root          string
	ConfigApplied bool
	Problems      []config.Problem
	Outcome       *runner.Outcome
	Files         []string
	Edit          *provenance.Edit
	Watch         *watcher.Status
	Title         string
}

// broadcaster fans events out to subscribers, in order, without letting a
// slow subscriber block the publisher for long: each subscriber has its own
// queue and goroutine.
type broadcaster struct {
	mu     sync.Mutex
	next   int
	subs   map[int]*subscriber
	closed bool
}

type subscriber struct {
	mu       sync.Mutex
	queue    []Event
	wake     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
}

// stop ends the subscriber's goroutine; both unsubscribe and close call it.
func (s *subscriber) stop() { s.stopOnce.Do(func() { close(s.done) }) }

func newBroadcaster() *broadcaster { return &broadcaster{subs: map[int]*subscriber{}} }

func (b *broadcaster) subscribe(fn func(Event)) func() {
	s := &subscriber{wake: make(chan struct{}, 1), done: make(chan struct{})}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return func() {}
	}
	id := b.next
	b.next++
	b.subs[id] = s
	b.mu.Unlock()
	go func() {
		for {
			select {
			case <-s.done:
				return
			case <-s.wake:
			}
			s.mu.Lock()
			q := s.queue
			s.queue = nil
			s.mu.Unlock()
			for _, e := range q {
				fn(e)
			}
		}
	}()
	return func() {
		b.mu.Lock()
		delete(b.subs, id)
		b.mu.Unlock()
		s.stop()
	}
}

func (b *broadcaster) publish(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs {
		s.mu.Lock()
		s.queue = append(s.queue, e)
		s.mu.Unlock()
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

func (b *broadcaster) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	for id, s := range b.subs {
		delete(b.subs, id)
		s.stop()
	}
}
