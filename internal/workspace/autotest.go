package workspace

import (
	"context"
	"sort"
	"time"

	"github.com/aisbx/aisbx/internal/records"
	"github.com/aisbx/aisbx/internal/runner"
	"github.com/aisbx/aisbx/internal/testsel"
)

// autoTest runs the affected tests once an agent's edits settle, with
// agents.auto_test = "affected". A newer batch of edits cancels a run that
// has not finished: its result would be stale.
type autoTest struct {
	pending map[string]bool
	timer   *time.Timer
	cancel  context.CancelFunc
	running bool
}

// autoTestSettle is how long an agent must stop writing before its edits
// are tested.
const autoTestSettle = 1500 * time.Millisecond

// scheduleAutoTest adds agent-changed files to the next automatic run.
func (w *Workspace) scheduleAutoTest(rels ...string) {
	if w.Config().Agents.AutoTest != "affected" || w.Root == "" {
		return
	}
	w.act.mu.Lock()
	defer w.act.mu.Unlock()
	a := &w.act.auto
	if a.pending == nil {
		a.pending = map[string]bool{}
	}
	for _, r := range rels {
		a.pending[r] = true
	}
	if a.cancel != nil {
		a.cancel() // superseded
		a.cancel = nil
	}
	if a.timer != nil {
		a.timer.Stop()
	}
	a.timer = time.AfterFunc(autoTestSettle, w.runAutoTest)
}

func (w *Workspace) runAutoTest() {
	w.act.mu.Lock()
	a := &w.act.auto
	changed := make([]string, 0, len(a.pending))
	for p := range a.pending {
		changed = append(changed, p)
	}
	a.pending = nil
	ctx, cancel := context.WithCancel(w.ctx)
	a.cancel, a.running = cancel, true
	w.act.mu.Unlock()
	defer func() {
		cancel()
		w.act.mu.Lock()
		a.running = false
		w.act.mu.Unlock()
	}()
	sort.Strings(changed)
	w.publish(Event{Kind: EventRunStarted, Title: "affected tests of an agent's edits", Files: changed})
	out, err := w.RunTests(ctx, runner.Request{Mode: testsel.ModeAffected, Changed: changed, Overlay: w.Overlay(),
		Trigger: records.TriggerAgent}, runner.Observer{})
	switch {
	case ctx.Err() != nil:
		w.log.Info("automatic test run superseded by newer agent edits")
	case err != nil:
		w.log.Warn("automatic test run failed to start", "err", err)
	default:
		w.note(Activity{Time: time.Now(), Kind: "tests", Detail: out.Message()})
	}
}

// AutoTestState says whether an automatic run is pending or running.
func (w *Workspace) AutoTestState() (pending int, running bool) {
	w.act.mu.Lock()
	defer w.act.mu.Unlock()
	return len(w.act.auto.pending), w.act.auto.running
}
