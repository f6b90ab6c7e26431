package daemon

import (
	"context"
	"os"
	"runtime"
	"time"

	"github.com/aisbx/aisbx/internal/version"
	"github.com/aisbx/aisbx/internal/workspace"
	"github.com/aisbx/aisbx/sandbox"
	"github.com/aisbx/aisbx/watcher"
)

// Status is what `aisbxd status` shows.
type Status struct {
	Running    bool                   `json:"running"`
	PID        int                    `json:"pid,omitempty"`
	Version    string                 `json:"version,omitempty"`
	Started    time.Time              `json:"started,omitempty"`
	UptimeMS   int64                  `json:"uptime_ms,omitempty"`
	Socket     string                 `json:"socket"`
	HeapBytes  uint64                 `json:"heap_bytes,omitempty"`
	Clients    []workspace.ClientInfo `json:"clients"`
	Workspaces []WorkspaceStatus      `json:"workspaces"`
}

// WorkspaceStatus describes one workspace in the daemon.
type WorkspaceStatus struct {
	Root          string                `json:"root"`
	Users         int                   `json:"users"`
	ConfigOK      bool                  `json:"config_ok"`
	ConfigProblem []string              `json:"config_problems,omitempty"`
	Sandbox       *sandbox.StatusReport `json:"sandbox,omitempty"`
	// Recent is what agents and aisbx did lately (AI edits, background
	// checks, automatic test runs), oldest first.
	Recent   []workspace.Activity `json:"recent"`
	AutoTest struct {
		Pending int  `json:"pending_files"`
		Running bool `json:"running"`
	} `json:"auto_test"`
	Watch *watcher.Status `json:"watch,omitempty"`
	// Committed counts the AI edits recorded in the repository itself
	// (git-ai notes, Agent Trace).
	Committed int    `json:"committed_ai_edits"`
	LastRun   string `json:"last_run,omitempty"`
}

// Status reports the daemon's state.
func (d *Daemon) Status(ctx context.Context) Status {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	st := Status{
		Running: true, PID: os.Getpid(), Version: version.String(), Started: d.started,
		UptimeMS: time.Since(d.started).Milliseconds(), Socket: d.opts.Socket, HeapBytes: ms.HeapAlloc,
		Clients: d.reg.Clients(), Workspaces: []WorkspaceStatus{},
	}
	for _, w := range d.reg.Workspaces() {
		ws := WorkspaceStatus{Root: w.Root, Users: w.Users(), ConfigOK: true}
		if l := w.Loaded(); l != nil {
			ws.ConfigOK = !l.HasErrors()
			for _, p := range l.Problems {
				ws.ConfigProblem = append(ws.ConfigProblem, p.String())
			}
		}
		if sb, ok := w.SandboxStatus(ctx); ok {
			ws.Sandbox = &sb
		}
		ws.Recent = w.Recent(10)
		ws.AutoTest.Pending, ws.AutoTest.Running = w.AutoTestState()
		ws.Committed = len(w.Committed(ctx))
		if st, ok := w.WatchStatus(); ok {
			ws.Watch = &st
		}
		if r, err := w.Runner(); err == nil && r.Last() != nil {
			ws.LastRun = r.Last().Message()
		}
		st.Workspaces = append(st.Workspaces, ws)
	}
	return st
}
