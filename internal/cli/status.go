package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aisbx/aisbx/internal/daemon"
)

func cmdStatus(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet("status", "status [--json] [--socket PATH]", env)
	asJSON := fs.Bool("json", false, "print JSON")
	socket := fs.String("socket", daemon.SocketPath(), "the daemon's socket (env AISBX_SOCKET)")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var st daemon.Status
	err := daemon.Call(ctx, *socket, "aisbx/status", nil, &st)
	if errors.Is(err, daemon.ErrNotRunning) {
		st = daemon.Status{Running: false, Socket: *socket, Clients: nil}
	} else if err != nil {
		fmt.Fprintln(env.Stderr, "aisbxd status:", err)
		return ExitInternal
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(st)
	} else {
		printStatus(env, st)
	}
	if !st.Running {
		return ExitFailure
	}
	return ExitOK
}

func printStatus(env *Env, st daemon.Status) {
	w := env.Stdout
	if !st.Running {
		fmt.Fprintf(w, "daemon: not running (socket %s)\n", st.Socket)
		fmt.Fprintln(w, "It starts on its own when an editor runs `aisbxd serve`, or by hand with `aisbxd daemon`.")
		return
	}
	up := time.Duration(st.UptimeMS) * time.Millisecond
	fmt.Fprintf(w, "daemon:  running, pid %d, version %s, up %s, heap %.1f MiB\n", st.PID, st.Version, up.Round(time.Second), float64(st.HeapBytes)/(1<<20))
	fmt.Fprintf(w, "socket:  %s\n", st.Socket)
	fmt.Fprintf(w, "clients: %d\n", len(st.Clients))
	for _, c := range st.Clients {
		name := c.Name
		if name == "" {
			name = "(control)"
		}
		if c.Version != "" {
			name += " " + c.Version
		}
		pid := ""
		if c.PID > 0 {
			pid = fmt.Sprintf(" pid %d,", c.PID)
		}
		fmt.Fprintf(w, "  %-24s%s connected %s ago  %s\n", name, pid, time.Since(c.Connected).Round(time.Second), strings.Join(c.Roots, " "))
	}
	fmt.Fprintf(w, "workspaces: %d\n", len(st.Workspaces))
	for _, ws := range st.Workspaces {
		root := ws.Root
		if root == "" {
			root = "(files outside any folder)"
		}
		cfg := "config ok"
		if !ws.ConfigOK {
			cfg = "config has errors (last good config in force)"
		}
		fmt.Fprintf(w, "  %s  users %d, %s\n", root, ws.Users, cfg)
		for _, p := range ws.ConfigProblem {
			fmt.Fprintf(w, "    %s\n", p)
		}
		if sb := ws.Sandbox; sb != nil {
			if !sb.Engine.Reachable {
				fmt.Fprintf(w, "    sandbox: engine not reachable: %s\n", sb.Engine.Error)
			}
			for _, p := range sb.Pools {
				fmt.Fprintf(w, "    sandbox pool %-8s %d/%d warm  image %s\n", p.Profile, p.Idle, p.Size, p.Image)
			}
			if sb.Runs > 0 {
				fmt.Fprintf(w, "    sandbox runs: %d (%d running)\n", sb.Runs, sb.Running)
			}
		}
		if wt := ws.Watch; wt != nil {
			state := fmt.Sprintf("%d dirs watched", wt.Watches)
			if wt.Polled > 0 {
				state += fmt.Sprintf(", %d polled", wt.Polled)
			}
			if wt.Degraded {
				state += " — " + wt.Reason
			}
			fmt.Fprintf(w, "    watch: %s\n", state)
		}
		if ws.LastRun != "" {
			fmt.Fprintf(w, "    last run: %s\n", ws.LastRun)
		}
		if ws.AutoTest.Running || ws.AutoTest.Pending > 0 {
			fmt.Fprintf(w, "    pending: automatic test run (%d changed file(s), running: %v)\n", ws.AutoTest.Pending, ws.AutoTest.Running)
		}
		if len(ws.Recent) > 0 {
			fmt.Fprintln(w, "    recent:")
			for _, a := range ws.Recent {
				tool := ""
				if a.Tool != "" {
					tool = " [" + a.Tool + "]"
				}
				fmt.Fprintf(w, "      %s %-8s %s%s %s\n", a.Time.Local().Format("15:04:05"), a.Kind, a.File, tool, a.Detail)
			}
		}
	}
}
