package workspace

import (
	"context"
	"fmt"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/provenance"
)

// HookReport is an agent's own report of an edit (Claude Code's hook, or
// `aisbxd hook edit`): the edit and the file's content it refers to.
type HookReport struct {
	Edit    provenance.Edit
	Content []byte
	// Pre: the edit is about to happen (PreToolUse): check it, decide
	// whether to block, record nothing.
	Pre bool
}

// HookResult is what the hook tells the agent.
type HookResult struct {
	Block    bool   `json:"block"`
	Reason   string `json:"reason,omitempty"`
	Findings int    `json:"findings"`
	Summary  string `json:"summary"`
	EditID   string `json:"edit_id,omitempty"`
}

// HandleHook checks a reported edit and, after the fact, records it and
// sets the background work going: review markers, diagnostics for editors
// that do not have the file open, and the automatic test run.
func (w *Workspace) HandleHook(ctx context.Context, r HookReport) (HookResult, error) {
	policy, err := provenance.ParseBlockPolicy(w.Config().Agents.BlockOn)
	if err != nil {
		return HookResult{}, err
	}
	// The decision comes from the fast checks; the full ones (linters)
	// run in the background after a PostToolUse.
	f := checks.NewFile(w.Root, r.Edit.File, r.Content)
	f.OnDisk = !r.Pre
	findings := w.FastEngine().Run(ctx, f).Findings
	if !r.Pre {
		w.NoteHook(r.Edit.File)
		saved, err := w.RecordEdit(r.Edit, r.Content)
		if err != nil {
			w.log.Warn("recording a hook edit", "err", err)
		}
		r.Edit = saved
		w.act.mu.Lock()
		w.setLastLocked(r.Edit.File, r.Content)
		w.act.mu.Unlock()
		w.queueCheck(r.Edit.File)
		if rn, err := w.Runner(); err == nil {
			rn.NoteChanged(w.rel(r.Edit.File))
		}
		w.scheduleAutoTest(w.rel(r.Edit.File))
	}
	d := provenance.Decide(policy, r.Edit.File, r.Content, r.Edit.Ranges, findings)
	res := HookResult{Block: d.Block, Reason: d.Reason, Findings: len(findings), EditID: r.Edit.ID,
		Summary: fmt.Sprintf("aisbx: %s: %s", w.rel(r.Edit.File), findingsDetail(findings))}
	return res, nil
}
