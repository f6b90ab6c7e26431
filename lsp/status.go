package lsp

import (
	"context"
	"encoding/json"
	"os"
	"time"

	"go.lsp.dev/protocol"

	"github.com/aisbx/aisbx/internal/version"
)

// statusResult is the Status type of docs/lsp.md.
type statusResult struct {
	Daemon struct {
		PID      int    `json:"pid"`
		Version  string `json:"version"`
		UptimeMs int64  `json:"uptimeMs"`
		Shared   bool   `json:"shared"`
	} `json:"daemon"`
	Engine struct {
		Reachable  bool   `json:"reachable"`
		APIVersion string `json:"apiVersion,omitempty"`
		Error      string `json:"error,omitempty"`
	} `json:"engine"`
	Workspaces []workspaceStatus `json:"workspaces"`
}

type workspaceStatus struct {
	Root    string       `json:"root"`
	Pools   []poolStatus `json:"pools"`
	LastRun any          `json:"lastRun,omitempty"`
}

type poolStatus struct {
	Profile string `json:"profile"`
	Warm    int    `json:"warm"`
	Size    int    `json:"size"`
}

// cmdStatus answers aisbx.status: the daemon, the engine, and each
// workspace's pools and last run, for status bars.
func cmdStatus(ctx context.Context, s *session, params *protocol.ExecuteCommandParams, args []json.RawMessage) (any, error) {
	return s.status(ctx), nil
}

func (s *session) status(ctx context.Context) statusResult {
	var st statusResult
	st.Daemon.PID = os.Getpid()
	st.Daemon.Version = version.String()
	st.Daemon.UptimeMs = time.Since(s.opts.Started).Milliseconds()
	st.Daemon.Shared = s.opts.Shared
	st.Workspaces = []workspaceStatus{}
	engineKnown := false
	for _, ws := range s.workspaces() {
		if ws.Root == "" {
			continue
		}
		w := workspaceStatus{Root: ws.Root, Pools: []poolStatus{}}
		if sb, err := ws.Sandbox(ctx); err == nil {
			rep := sb.Status(ctx)
			if !engineKnown {
				engineKnown = true
				st.Engine.Reachable = rep.Engine.Reachable
				st.Engine.APIVersion = rep.Engine.APIVersion
				st.Engine.Error = rep.Engine.Error
			}
			for _, p := range rep.Pools {
				w.Pools = append(w.Pools, poolStatus{Profile: p.Profile, Warm: p.Idle, Size: p.Size})
			}
		}
		if r, err := ws.Runner(); err == nil {
			w.LastRun = lastSummary(ws, r)
		}
		st.Workspaces = append(st.Workspaces, w)
	}
	return st
}
