package sandbox

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/moby/moby/client"
)

// watch follows the engine's container events for this daemon's
// containers. When the stream breaks the engine is taken as down: the pools
// forget their containers, and once the engine answers again, orphans are
// reaped and the pools refill.
func (s *Sandbox) watch() {
	defer s.wg.Done()
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("sandbox watcher panicked", "panic", r)
		}
	}()
	first := true
	for s.bg.Err() == nil {
		if !s.waitForEngine() {
			return
		}
		if first {
			first = false
			if n, err := s.Reap(s.bg); err != nil {
				s.log.Warn("reaping orphans failed", "err", err)
			} else if n > 0 {
				s.log.Info("reaped orphan sandbox containers", "count", n)
			}
		}
		s.engineUp.Store(true)
		s.kickPools()
		err := s.follow()
		if s.bg.Err() != nil {
			return
		}
		s.engineUp.Store(false)
		s.log.Warn("lost the Docker engine; the pools will rebuild when it is back", "err", err)
		s.mu.Lock()
		for _, pl := range s.pools {
			pl.drop()
		}
		s.mu.Unlock()
		first = true // reap what the old engine left once it is back
	}
}

// waitForEngine pings with backoff until the engine answers or the
// sandbox closes.
func (s *Sandbox) waitForEngine() bool {
	wait := 200 * time.Millisecond
	for {
		ctx, cancel := context.WithTimeout(s.bg, 5*time.Second)
		_, err := s.eng.cli.Ping(ctx, client.PingOptions{NegotiateAPIVersion: true})
		cancel()
		if err == nil {
			return true
		}
		select {
		case <-s.bg.Done():
			return false
		case <-time.After(wait):
		}
		wait = min(wait*2, 5*time.Second)
	}
}

func (s *Sandbox) kickPools() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, pl := range s.pools {
		pl.poke()
	}
}

// follow reads events until the stream fails.
func (s *Sandbox) follow() error {
	f := client.Filters{}
	f.Add("type", "container")
	f.Add("label", labelDaemon+"="+s.inst.id)
	ev := s.eng.cli.Events(s.bg, client.EventsListOptions{Filters: f})
	for {
		select {
		case <-s.bg.Done():
			return nil
		case err, ok := <-ev.Err:
			if !ok {
				return errors.New("event stream closed")
			}
			return err
		case m := <-ev.Messages:
			switch m.Action {
			case "oom":
				s.oomMu.Lock()
				s.oomSeen[m.Actor.ID] = true
				s.oomMu.Unlock()
			case "die", "destroy":
				s.mu.Lock()
				for _, pl := range s.pools {
					if pl.forget(m.Actor.ID) {
						s.log.Info("pool container exited on its own", "id", shortID(m.Actor.ID))
					}
				}
				s.mu.Unlock()
				if m.Action == "destroy" {
					s.oomMu.Lock()
					delete(s.oomSeen, m.Actor.ID)
					s.oomMu.Unlock()
				}
			}
		}
	}
}

func (s *Sandbox) sawOOM(id string) bool {
	s.oomMu.Lock()
	defer s.oomMu.Unlock()
	return s.oomSeen[id]
}

// Reap removes aisbx containers nobody will use: stopped ones, those of a
// daemon on this host that no longer runs, and those past their expiry
// label. Containers of this Sandbox and of other live daemons are left
// alone. It returns how many it removed.
func (s *Sandbox) Reap(ctx context.Context) (int, error) {
	f := client.Filters{}
	f.Add("label", labelManaged+"=1")
	res, err := s.eng.cli.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: f})
	if err != nil {
		return 0, s.eng.wrap("listing sandbox containers", err)
	}
	n := 0
	var errs []error
	for _, c := range res.Items {
		if !s.orphan(c.Labels, string(c.State)) {
			continue
		}
		if err := s.destroy(ctx, c.ID); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

func (s *Sandbox) orphan(labels map[string]string, state string) bool {
	if labels[labelDaemon] == s.inst.id {
		return state != "running" && state != "created"
	}
	// "created" is a live daemon's container between create and start:
	// only its daemon's death makes it an orphan.
	if state != "running" && state != "created" {
		return true
	}
	if exp, err := strconv.ParseInt(labels[labelExpires], 10, 64); err == nil && time.Now().Unix() > exp {
		return true
	}
	alive, known := s.inst.alive(labels)
	return known && !alive
}
