package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/aisbx/aisbx/internal/daemon"
	"github.com/aisbx/aisbx/internal/workspace"
	"github.com/aisbx/aisbx/lsp"
)

// feedItem is one line of `aisbxd watch`.
type feedItem struct {
	Time   time.Time `json:"time"`
	Root   string    `json:"root"`
	Kind   string    `json:"kind"`
	File   string    `json:"file,omitempty"`
	Tool   string    `json:"tool,omitempty"`
	Detail string    `json:"detail,omitempty"`
}

// cmdWatch prints a live feed of what agents do in a workspace and what
// aisbx makes of it. The daemon watches the workspace while the feed runs.
func cmdWatch(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet("watch", "watch [--dir DIR] [--json]", env)
	dir := fs.String("dir", ".", "the workspace to watch")
	asJSON := fs.Bool("json", false, "one JSON object per line")
	socket := fs.String("socket", daemon.SocketPath(), "the daemon's socket (env AISBX_SOCKET)")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	root := workspaceRoot(*dir)
	conn, err := daemon.Connect(ctx, *socket, daemon.StartOptions{})
	if err != nil {
		fmt.Fprintln(env.Stderr, "aisbxd watch:", err)
		return ExitInternal
	}
	defer conn.Close()
	if !*asJSON {
		fmt.Fprintf(env.Stderr, "watching %s (Ctrl-C to stop)\n", root)
	}
	err = daemon.Request(ctx, conn, "aisbx/watch", map[string]string{"root": root}, nil, func(method string, params json.RawMessage) {
		if method != "aisbx/event" {
			return
		}
		if *asJSON {
			fmt.Fprintf(env.Stdout, "%s\n", params)
			return
		}
		var it feedItem
		if json.Unmarshal(params, &it) == nil {
			who := it.Tool
			if who != "" {
				who = " [" + who + "]"
			}
			fmt.Fprintf(env.Stdout, "%s %-8s %s%s %s\n", it.Time.Local().Format("15:04:05"), it.Kind, it.File, who, it.Detail)
		}
	})
	if err != nil && ctx.Err() == nil {
		fmt.Fprintln(env.Stderr, "aisbxd watch:", err)
		return ExitInternal
	}
	return ExitOK
}

// watchControl streams a workspace's events as aisbx/event notifications
// until the client goes; the workspace stays open (and watched) meanwhile.
func watchControl(d *daemon.Daemon) lsp.ControlHandler {
	return func(ctx context.Context, c *lsp.ControlCall) (any, error) {
		var p struct {
			Root string `json:"root"`
		}
		if err := json.Unmarshal(c.Params, &p); err != nil || p.Root == "" {
			return nil, fmt.Errorf("aisbx/watch needs {root}")
		}
		user := "watch-" + c.ClientID
		ws, err := d.Registry().Acquire(ctx, p.Root, user)
		if err != nil {
			return nil, err
		}
		defer d.Registry().Release(ws, user)
		for _, a := range ws.Recent(20) {
			_ = c.Notify("aisbx/event", feedItem{Time: a.Time, Root: ws.Root, Kind: a.Kind, File: a.File, Tool: a.Tool, Detail: a.Detail})
		}
		stop := ws.Subscribe(func(e workspace.Event) {
			for _, it := range feedItems(ws, e) {
				_ = c.Notify("aisbx/event", it)
			}
		})
		defer stop()
		<-ctx.Done()
		return nil, nil
	}
}

// feedItems turns a workspace event into feed lines.
func feedItems(ws *workspace.Workspace, e workspace.Event) []feedItem {
	now := time.Now()
	rel := func(p string) string {
		if r, err := filepath.Rel(ws.Root, p); err == nil {
			return filepath.ToSlash(r)
		}
		return p
	}
	switch e.Kind {
	case workspace.EventAIEdit:
		if e.Edit == nil {
			return nil
		}
		return []feedItem{{Time: e.Edit.Time, Root: ws.Root, Kind: "ai-edit", File: rel(e.Edit.File), Tool: string(e.Edit.Tool),
			Detail: fmt.Sprintf("%s, %d line(s), confidence %.1f", e.Edit.Source, e.Edit.Lines(), e.Edit.Confidence)}}
	case workspace.EventFindings:
		var out []feedItem
		for _, f := range e.Files {
			bg, ok := ws.BackgroundFindings(f)
			detail := "removed"
			if ok {
				detail = fmt.Sprintf("%d finding(s)", len(bg.Findings))
				for i, fd := range bg.Findings {
					if i == 3 {
						detail += ", …"
						break
					}
					detail += fmt.Sprintf("; %s %s", fd.Severity, fd.Rule)
				}
			}
			out = append(out, feedItem{Time: now, Root: ws.Root, Kind: "checked", File: rel(f), Detail: detail})
		}
		return out
	case workspace.EventRunStarted:
		return []feedItem{{Time: now, Root: ws.Root, Kind: "tests", Detail: "running " + e.Title}}
	case workspace.EventTests:
		if e.Outcome == nil {
			return nil
		}
		return []feedItem{{Time: now, Root: ws.Root, Kind: "tests", Detail: e.Outcome.Message()}}
	case workspace.EventWatch:
		if e.Watch == nil {
			return nil
		}
		detail := e.Watch.Reason
		if !e.Watch.Degraded {
			detail = "recovered: every directory is watched again"
		}
		return []feedItem{{Time: now, Root: ws.Root, Kind: "watch", Detail: detail}}
	case workspace.EventConfig:
		if len(e.Problems) > 0 {
			return []feedItem{{Time: now, Root: ws.Root, Kind: "config", Detail: e.Problems[0].String()}}
		}
	}
	return nil
}
