package workspace

import (
	"context"
	"time"

	"github.com/aisbx/aisbx/internal/provenance"
)

// committedTTL is how long the committed attribution of a workspace (git-ai
// notes, Agent Trace records) is reused before it is read again.
const committedTTL = time.Minute

// committedNotes bounds how many commits' git-ai notes are read.
const committedNotes = 100

// Committed returns the AI attribution recorded in the repository itself:
// git-ai notes on recent commits and .agent-trace/traces.jsonl. It is read
// lazily and cached for a minute; a repository without either costs one
// git call and one stat.
func (w *Workspace) Committed(ctx context.Context) []provenance.Edit {
	if w.Root == "" {
		return nil
	}
	w.act.mu.Lock()
	if time.Since(w.act.committedAt) < committedTTL {
		es := w.act.committed
		w.act.mu.Unlock()
		return es
	}
	w.act.mu.Unlock()
	var es []provenance.Edit
	if notes, err := provenance.RecentGitAINotes(ctx, w.Root, committedNotes); err == nil {
		es = append(es, notes...)
	} else {
		w.log.Debug("no git-ai notes", "err", err)
	}
	if traces, err := provenance.ReadAgentTraces(w.Root); err == nil {
		es = append(es, traces...)
	} else {
		w.log.Warn("reading Agent Trace records", "err", err)
	}
	w.act.mu.Lock()
	w.act.committed, w.act.committedAt = es, time.Now()
	w.act.mu.Unlock()
	return es
}
