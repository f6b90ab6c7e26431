package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/aisbx/aisbx/checks/secrets"
	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/internal/daemon"
	"github.com/aisbx/aisbx/internal/records"
	"github.com/aisbx/aisbx/internal/runner"
	"github.com/aisbx/aisbx/internal/testresults"
	"github.com/aisbx/aisbx/internal/testsel"
	"github.com/aisbx/aisbx/internal/workspace"
	"github.com/aisbx/aisbx/lsp"
	"github.com/aisbx/aisbx/sandbox"
)

// runParams is aisbx/run's request: the CLI's flags, resolved.
type runParams struct {
	Dir     string        `json:"dir"`
	Mode    testsel.Mode  `json:"mode"`
	Since   string        `json:"since,omitempty"`
	Files   []string      `json:"files,omitempty"`
	Profile string        `json:"profile,omitempty"`
	Cmd     []string      `json:"cmd,omitempty"`
	Timeout time.Duration `json:"timeout,omitempty"`
}

func (p runParams) request() runner.Request {
	return runner.Request{Mode: p.Mode, Since: p.Since, Files: p.Files, Profile: p.Profile, Cmd: p.Cmd,
		Timeout: p.Timeout, Trigger: records.TriggerCLI}
}

// cmdRun runs tests (or a command) in the sandbox: through the daemon's
// warm pool when a daemon runs, in a cold container otherwise.
func cmdRun(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet("run", "run [--json] [--dir DIR] [--profile NAME] [--timeout D] [--affected [--since REV]] [--file F]... [-- CMD ARGS...]", env)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	dir := fs.String("dir", ".", "the workspace to snapshot")
	profile := fs.String("profile", "", "the sandbox profile (go, python, node, ...); default: detected")
	timeout := fs.Duration("timeout", 0, "stop the run after this long (default: sandbox.timeout)")
	affected := fs.Bool("affected", false, "run only the tests the changes since --since (and unsaved editor buffers) can break")
	since := fs.String("since", "", "git revision for --affected (default: tests.since, HEAD)")
	failed := fs.Bool("failed", false, "re-run the failed tests of the daemon's last run in this workspace")
	var files multiFlag
	fs.Var(&files, "file", "run the tests of this file (repeatable)")
	noDaemon := fs.Bool("no-daemon", false, "always run cold, even when a daemon runs")
	socket := fs.String("socket", daemon.SocketPath(), "the daemon's socket (env AISBX_SOCKET)")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if *since != "" {
		*affected = true
	}
	root := workspaceRoot(*dir)
	p := runParams{Dir: root, Mode: testsel.ModeAll, Since: *since, Profile: *profile, Cmd: fs.Args(), Timeout: *timeout}
	switch {
	case len(p.Cmd) > 0 && (*affected || len(files) > 0 || *failed):
		fmt.Fprintln(env.Stderr, "aisbxd run: give either a command or --affected/--file/--failed, not both")
		return ExitUsage
	case *affected:
		p.Mode = testsel.ModeAffected
	case *failed:
		p.Mode = testsel.ModeFailed
	case len(files) > 0:
		p.Mode = testsel.ModeFile
		for _, f := range files {
			abs, _ := filepath.Abs(f)
			rel, err := filepath.Rel(root, abs)
			if err != nil || strings.HasPrefix(rel, "..") {
				fmt.Fprintf(env.Stderr, "aisbxd run: %s is outside the workspace %s\n", f, root)
				return ExitUsage
			}
			p.Files = append(p.Files, filepath.ToSlash(rel))
		}
	}

	// A test run's stdout is the reporters' protocol: show each test as it
	// ends instead. An explicit command's output is shown as it is.
	raw := len(p.Cmd) > 0
	stream := runner.NewLineRedactor(secrets.RedactText, func(s string, text []byte) {
		switch {
		case *asJSON:
		case s == "stderr":
			env.Stderr.Write(text)
		case raw:
			env.Stdout.Write(text)
		}
	})
	onTest := func(t runner.JSONTest) {
		if !*asJSON && !raw {
			printTest(env, t)
		}
	}
	var res *runner.JSON
	var err error
	if conn, derr := daemon.Dial(ctx, *socket); derr == nil && !*noDaemon {
		err = daemon.Request(ctx, conn, "aisbx/run", p, &res, func(method string, params json.RawMessage) {
			switch method {
			case "aisbx/runOutput":
				var n struct {
					Stream string `json:"stream"`
					Text   string `json:"text"`
				}
				if json.Unmarshal(params, &n) == nil {
					stream.Write(n.Stream, []byte(n.Text))
				}
			case "aisbx/testResult":
				var t runner.JSONTest
				if json.Unmarshal(params, &t) == nil {
					onTest(t)
				}
			}
		})
		conn.Close()
	} else {
		if p.Mode == testsel.ModeFailed {
			fmt.Fprintln(env.Stderr, "aisbxd run --failed: needs the daemon, which remembers the last run; none is running")
			return ExitUsage
		}
		res, err = runCold(ctx, p, runner.Observer{Output: stream.Write, Event: func(e testresults.Event) {
			if e.Kind == testresults.EventEnd && e.Result != nil {
				onTest(runner.TestJSON(e.Result))
			}
		}})
	}
	stream.Flush()
	if err != nil {
		fmt.Fprintln(env.Stderr, "aisbxd run:", err)
		if errors.Is(err, sandbox.ErrEngineUnreachable) || strings.Contains(err.Error(), "engine") {
			return ExitInternal
		}
		return ExitUsage
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
	} else {
		fmt.Fprintln(env.Stderr, "aisbxd run:", res.Message)
		if res.Record != "" {
			fmt.Fprintf(env.Stderr, "record: %s (aisbxd runs show %s)\n", res.Record, res.ID)
		}
	}
	return exitCodeOf(res)
}

// printTest shows one finished test: failures with where and why.
func printTest(env *Env, t runner.JSONTest) {
	switch t.Status {
	case "passed":
		fmt.Fprintf(env.Stdout, "  ✓ %s (%.2fs)\n", t.Name, t.DurationMS/1000)
	case "skipped":
		fmt.Fprintf(env.Stdout, "  ○ %s skipped\n", t.Name)
	default:
		where := t.Location
		if where == "" {
			where = t.File
		}
		fmt.Fprintf(env.Stdout, "  ✗ %s %s %s\n", t.Name, t.Status, where)
		if t.Message != "" {
			fmt.Fprintf(env.Stdout, "      %s\n", t.Message)
		}
	}
}

// exitCodeOf is the job's exit code; runs a limit stopped get the usual
// shell codes for their cause.
func exitCodeOf(res *runner.JSON) int {
	switch res.Status {
	case "passed", runner.StatusNoTests:
		return 0
	case "timeout":
		return 124
	case "oom":
		return 137
	case "engine-error":
		return ExitInternal
	case "cancelled":
		return 130
	}
	if res.ExitCode > 0 && res.ExitCode < 256 {
		return res.ExitCode
	}
	return ExitFailure
}

// runCold runs without a daemon: a one-off sandbox with no pool.
func runCold(ctx context.Context, p runParams, obs runner.Observer) (*runner.JSON, error) {
	l := config.Load(p.Dir)
	if l.Config == nil {
		var lines []string
		for _, pr := range l.Problems {
			lines = append(lines, pr.String())
		}
		return nil, fmt.Errorf("the config has errors:\n%s", strings.Join(lines, "\n"))
	}
	cfg := l.Config
	opts := workspace.SandboxOptions(p.Dir, cfg)
	opts.PoolSize = -1
	sb, err := sandbox.New(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer sb.Close(context.WithoutCancel(ctx))
	if err := sb.Ping(ctx); err != nil {
		return nil, err
	}
	dir := cfg.Records.Dir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(p.Dir, dir)
	}
	store, err := records.Open(dir, records.Options{MaxRecords: cfg.Records.Keep, MaxAge: cfg.Records.MaxAge.D(), Redact: secrets.RedactText})
	if err != nil {
		return nil, err
	}
	r := runner.New(runner.Options{Root: p.Dir, Records: store, Since: cfg.Tests.Since, Logger: slog.New(slog.DiscardHandler),
		Sandbox: func(context.Context) (runner.Sandbox, error) { return sb, nil }})
	out, err := r.Run(ctx, p.request(), obs)
	if err != nil {
		return nil, err
	}
	return out.ToJSON(), nil
}

// runControl answers aisbx/run in the daemon: the run uses the workspace's
// warm pool and its editors' unsaved buffers, and streams output back.
func runControl(d *daemon.Daemon, log *slog.Logger) lsp.ControlHandler {
	return func(ctx context.Context, c *lsp.ControlCall) (any, error) {
		var p runParams
		if err := json.Unmarshal(c.Params, &p); err != nil || p.Dir == "" {
			return nil, fmt.Errorf("aisbx/run needs {dir, ...}: %v", err)
		}
		ws, err := d.Registry().Acquire(ctx, p.Dir, "cli-"+c.ClientID)
		if err != nil {
			return nil, err
		}
		defer d.Registry().Release(ws, "cli-"+c.ClientID)
		req := p.request()
		req.Overlay = ws.Overlay()
		if p.Mode == testsel.ModeFailed {
			r, err := ws.Runner()
			if err != nil {
				return nil, err
			}
			if req.Tests = r.FailedTests(); len(req.Tests) == 0 {
				return nil, errors.New("the last run in this workspace had no failed tests")
			}
		}
		stream := runner.NewLineRedactor(secrets.RedactText, func(s string, text []byte) {
			_ = c.Notify("aisbx/runOutput", map[string]string{"stream": s, "text": string(text)})
		})
		out, err := ws.RunTests(ctx, req, runner.Observer{Output: stream.Write, Event: func(e testresults.Event) {
			if e.Kind == testresults.EventEnd && e.Result != nil {
				_ = c.Notify("aisbx/testResult", runner.TestJSON(e.Result))
			}
		}})
		stream.Flush()
		if err != nil {
			return nil, err
		}
		return out.ToJSON(), nil
	}
}
