package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/moby/moby/client"

	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/internal/daemon"
	"github.com/aisbx/aisbx/internal/version"
)

// doctorCheck is one line of `aisbxd doctor`.
type doctorCheck struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok, warn, fail, info
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// doctorChecks lists what doctor looks at; later features add theirs.
var doctorChecks = []func(ctx context.Context, root string) []doctorCheck{
	doctorVersion,
	doctorDocker,
	doctorSocket,
	doctorInotify,
	doctorConfig,
	doctorLinters,
}

func cmdDoctor(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet("doctor", "doctor [--json] [DIR]", env)
	asJSON := fs.Bool("json", false, "print JSON")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	dir := "."
	if fs.NArg() > 0 {
		dir = fs.Arg(0)
	}
	root := workspaceRoot(dir)
	var all []doctorCheck
	for _, c := range doctorChecks {
		all = append(all, c(ctx, root)...)
	}
	failed := false
	for _, c := range all {
		failed = failed || c.Status == "fail"
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(map[string]any{"ok": !failed, "checks": all})
	} else {
		marks := map[string]string{"ok": "✓", "warn": "!", "fail": "✗", "info": "·"}
		for _, c := range all {
			fmt.Fprintf(env.Stdout, "%s %-22s %s\n", marks[c.Status], c.Name, c.Detail)
			if c.Fix != "" {
				for _, line := range strings.Split(c.Fix, "\n") {
					fmt.Fprintf(env.Stdout, "  %-22s → %s\n", "", line)
				}
			}
		}
	}
	if failed {
		return ExitFailure
	}
	return ExitOK
}

func doctorVersion(ctx context.Context, root string) []doctorCheck {
	exe, _ := os.Executable()
	return []doctorCheck{{Name: "aisbxd", Status: "ok", Detail: version.String() + " at " + exe}}
}

func doctorDocker(ctx context.Context, root string) []doctorCheck {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	host := os.Getenv("DOCKER_HOST")
	if host == "" {
		host = "unix:///var/run/docker.sock"
	}
	fix := "start the engine: `sudo systemctl start docker` (or `dockerd &`), or point DOCKER_HOST at a running one.\nWithout it aisbx still checks code; only sandboxed test runs need it."
	cli, err := client.New(client.FromEnv)
	if err != nil {
		return []doctorCheck{{Name: "docker engine", Status: "fail", Detail: "cannot configure a client for " + host + ": " + err.Error(), Fix: fix}}
	}
	defer cli.Close()
	ping, err := cli.Ping(ctx, client.PingOptions{NegotiateAPIVersion: true})
	if err != nil {
		return []doctorCheck{{Name: "docker engine", Status: "fail", Detail: "not reachable at " + host + ": " + err.Error(), Fix: fix}}
	}
	detail := fmt.Sprintf("reachable at %s, API %s (client negotiated %s)", host, ping.APIVersion, cli.ClientVersion())
	return []doctorCheck{{Name: "docker engine", Status: "ok", Detail: detail}}
}

func doctorSocket(ctx context.Context, root string) []doctorCheck {
	sock := daemon.SocketPath()
	dir := filepath.Dir(sock)
	out := []doctorCheck{}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return append(out, doctorCheck{Name: "socket dir", Status: "fail", Detail: err.Error(), Fix: "set AISBX_SOCKET to a path in a directory you own"})
	}
	probe, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		out = append(out, doctorCheck{Name: "socket dir", Status: "fail", Detail: dir + " is not writable: " + err.Error(), Fix: "set AISBX_SOCKET to a path in a directory you own"})
	} else {
		probe.Close()
		os.Remove(probe.Name())
		out = append(out, doctorCheck{Name: "socket dir", Status: "ok", Detail: dir + " is writable"})
	}
	var st daemon.Status
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := daemon.Call(cctx, sock, "aisbx/status", nil, &st); err != nil {
		out = append(out, doctorCheck{Name: "daemon", Status: "info", Detail: "not running; editors start it through `aisbxd serve`"})
	} else {
		out = append(out, doctorCheck{Name: "daemon", Status: "ok", Detail: fmt.Sprintf("running, pid %d, %d client(s)", st.PID, len(st.Clients))})
	}
	return out
}

// inotifyMin is what a large monorepo needs, roughly one watch a directory.
const inotifyMin = 65536

func doctorInotify(ctx context.Context, root string) []doctorCheck {
	b, err := os.ReadFile("/proc/sys/fs/inotify/max_user_watches")
	if err != nil {
		return []doctorCheck{{Name: "inotify watches", Status: "info", Detail: "limit not readable: " + err.Error()}}
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if n < inotifyMin {
		return []doctorCheck{{Name: "inotify watches", Status: "warn",
			Detail: fmt.Sprintf("limit is %d; large workspaces fall back to polling", n),
			Fix:    "sudo sysctl fs.inotify.max_user_watches=524288 (persist it in /etc/sysctl.d/)"}}
	}
	return []doctorCheck{{Name: "inotify watches", Status: "ok", Detail: fmt.Sprintf("limit is %d", n)}}
}

func doctorConfig(ctx context.Context, root string) []doctorCheck {
	l := config.Load(root)
	if len(l.Problems) == 0 {
		return []doctorCheck{{Name: "config", Status: "ok", Detail: fmt.Sprintf("%d file(s) read for %s", len(l.Layers), root)}}
	}
	var lines []string
	for _, p := range l.Problems {
		lines = append(lines, p.String())
	}
	status := "warn"
	if l.HasErrors() {
		status = "fail"
	}
	return []doctorCheck{{Name: "config", Status: status, Detail: fmt.Sprintf("%d problem(s)", len(l.Problems)), Fix: strings.Join(lines, "\n")}}
}
