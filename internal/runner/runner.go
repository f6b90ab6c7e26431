package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aisbx/aisbx/internal/records"
	"github.com/aisbx/aisbx/internal/testresults"
	"github.com/aisbx/aisbx/internal/testsel"
	"github.com/aisbx/aisbx/sandbox"
)

// Sandbox is what the runner needs of a sandbox (*sandbox.Sandbox).
type Sandbox interface {
	Run(ctx context.Context, job sandbox.Job) (*sandbox.Result, error)
	Profiles() map[string]sandbox.Profile
	Build(ctx context.Context, opts sandbox.BuildOptions) ([]sandbox.ImageInfo, error)
}

// Options configure a Runner.
type Options struct {
	Root string
	// Sandbox returns the sandbox to run in; called for every run, so a
	// config change that replaces the sandbox takes effect.
	Sandbox func(ctx context.Context) (Sandbox, error)
	// Records stores run records; nil writes none.
	Records *records.Store
	// Dependencies reads the workspace's dependency list for records;
	// nil means records.LockfileReader.
	Dependencies records.DependencyReader
	// Since is the default revision for affected runs ("" = HEAD).
	Since    string
	Selector testsel.Options
	Logger   *slog.Logger
	// Provenance returns the AI edits behind changed files (workspace-
	// relative) for the record, when the request brings none.
	Provenance func(changed []string) []records.Provenance
}

// Runner runs one workspace's tests. It remembers what changed since the
// last green run and the last run's failures. Safe for concurrent use.
type Runner struct {
	opts Options
	sel  *testsel.Selector
	log  *slog.Logger

	mu      sync.Mutex
	changed map[string]bool // edits since the last green run
	last    *Outcome
	failed  []testsel.TestRef
}

// New returns a Runner for opts.Root.
func New(opts Options) *Runner {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Dependencies == nil {
		opts.Dependencies = records.LockfileReader{}
	}
	return &Runner{opts: opts, sel: testsel.New(opts.Root, opts.Selector), log: opts.Logger, changed: map[string]bool{}}
}

// Selector is the workspace's test selector (discovery shares its cache).
func (r *Runner) Selector() *testsel.Selector { return r.sel }

// NoteChanged records edits (workspace-relative paths) that affected runs
// must cover until a run that includes them passes.
func (r *Runner) NoteChanged(paths ...string) {
	r.mu.Lock()
	for _, p := range paths {
		r.changed[p] = true
	}
	r.mu.Unlock()
}

// Last returns the last finished run, or nil.
func (r *Runner) Last() *Outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// profileFor maps a selection language to its sandbox profile.
var profileFor = map[testsel.Lang]string{testsel.LangGo: "go", testsel.LangPython: "python", testsel.LangJS: "node"}

// Run does one run. The error is for runs that could not start (no
// sandbox, bad request, engine down); everything after start, failures and
// limits included, is an Outcome.
func (r *Runner) Run(ctx context.Context, req Request, obs Observer) (*Outcome, error) {
	t0 := time.Now()
	id := records.NewID(t0)
	sb, err := r.opts.Sandbox(ctx)
	if err != nil {
		return nil, err
	}
	if req.Trigger == "" {
		req.Trigger = records.TriggerCLI
	}
	if len(req.Cmd) > 0 {
		return r.runCommand(ctx, sb, id, t0, req, obs)
	}

	changed, err := r.changedFiles(ctx, &req)
	if err != nil {
		return nil, err
	}
	sel, err := r.sel.Select(ctx, testsel.Request{
		Mode: req.Mode, Changed: changed, Files: req.Files, Tests: req.Tests, Overlay: req.Overlay,
	})
	if err != nil {
		return nil, fmt.Errorf("selecting tests: %w", err)
	}
	out := &Outcome{ID: id, Started: t0, Selection: sel}
	if sel.Empty() {
		out.Status, out.Reason = StatusNoTests, noTestsReason(sel, changed)
		out.Duration = time.Since(t0)
		r.finish(ctx, out, req, changed, nil, nil)
		return out, nil
	}

	jobs, err := r.plan(sb, sel)
	if err != nil {
		return nil, err
	}
	if obs.Started != nil {
		st := &Started{ID: id, Selection: sel, Title: title(sel)}
		for _, j := range jobs {
			st.Profiles = append(st.Profiles, j.profile)
		}
		obs.Started(st)
	}
	agg := newAggregate(obs.Event)
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		res, err := r.runJob(ctx, sb, id, j, req, obs, agg)
		if err != nil {
			if len(out.Jobs) == 0 {
				return nil, err
			}
			out.Status, out.Reason = "engine-error", err.Error()
			break
		}
		out.Jobs = append(out.Jobs, res)
	}
	out.Summary = agg.summary()
	out.Duration = time.Since(t0)
	verdict(out, ctx)
	r.finish(ctx, out, req, changed, jobsCommand(jobs), sel)
	return out, nil
}

// job is one sandbox job: every plan of one profile, combined.
type job struct {
	profile string
	cmd     testresults.Command
	workdir string
}

func (r *Runner) plan(sb Sandbox, sel *testsel.Selection) ([]job, error) {
	profiles := sb.Profiles()
	byProfile := map[string][]testresults.Command{}
	var order []string
	for _, p := range sel.Plans {
		name := profileFor[p.Lang]
		prof, ok := profiles[name]
		if !ok {
			return nil, fmt.Errorf("no sandbox profile %q for the %s tests in %s", name, p.Lang, p.Dir)
		}
		fw, err := testresults.Detect(r.opts.Root, p.Lang, p.Dir)
		if err != nil {
			return nil, fmt.Errorf("detecting the test framework of %s: %w", p.Dir, err)
		}
		cmd, err := testresults.BuildCommand(p, fw, testresults.CommandOptions{Workdir: prof.Workdir})
		if err != nil {
			return nil, fmt.Errorf("building the test command of %s: %w", p.Dir, err)
		}
		if _, seen := byProfile[name]; !seen {
			order = append(order, name)
		}
		byProfile[name] = append(byProfile[name], cmd)
	}
	var jobs []job
	for _, name := range order {
		cmd, err := testresults.Combine(byProfile[name])
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, job{profile: name, cmd: cmd, workdir: profiles[name].Workdir})
	}
	return jobs, nil
}

// runJob runs one job and streams its stdout into the parser.
func (r *Runner) runJob(ctx context.Context, sb Sandbox, id string, j job, req Request, obs Observer, agg *aggregate) (*sandbox.Result, error) {
	parser := testresults.NewParser(testresults.ParseOptions{
		Framework: j.cmd.Framework, Workdir: j.workdir, Dir: j.cmd.Dir, OnEvent: agg.event,
	})
	env := map[string]string{}
	for _, e := range j.cmd.Env {
		k, v, _ := strings.Cut(e, "=")
		env[k] = v
	}
	// The sandbox runs argv in the work dir; the command runs in its Dir.
	argv := j.cmd.Argv
	if j.cmd.Dir != "" && j.cmd.Dir != "." {
		argv = append([]string{"/bin/sh", "-c", `cd "$1" && shift && exec "$@"`, "aisbx-cd", j.cmd.Dir}, argv...)
	}
	jobID := id
	if len(agg.jobs) > 0 {
		jobID = fmt.Sprintf("%s-%d", id, len(agg.jobs)+1)
	}
	agg.jobs = append(agg.jobs, j.profile)
	// Observers see the tests' own output: a test run's stdout is the
	// reporters' protocol, so it goes to them a line at a time through
	// testresults.Human. An explicit command's output is shown as it is.
	show := obs.Output
	var lines *lineSplitter
	if show != nil && len(req.Cmd) == 0 {
		lines = &lineSplitter{emit: func(l []byte) {
			if h := testresults.Human(l); len(h) > 0 {
				show("stdout", h)
			}
		}}
	}
	sjob := sandbox.Job{
		ID: jobID, Workspace: r.opts.Root, Overlay: req.Overlay, Profile: j.profile, Cmd: argv,
		Env: env, Timeout: req.Timeout, Files: j.cmd.Files,
		Output: func(stream string, p []byte) {
			switch {
			case stream == "stdout" && lines != nil:
				_, _ = parser.Write(p)
				lines.write(p)
			case stream == "stdout":
				_, _ = parser.Write(p)
				if show != nil {
					show(stream, p)
				}
			case show != nil:
				show(stream, p)
			}
		},
	}
	res, err := sb.Run(ctx, sjob)
	if errors.Is(err, sandbox.ErrImageNotBuilt) {
		// First run in this workspace (or its lockfiles changed): build the
		// image now, with progress, instead of sending the user to the CLI.
		if berr := r.build(ctx, sb, j.profile, obs); berr != nil {
			parser.Close()
			return nil, berr
		}
		res, err = sb.Run(ctx, sjob)
	}
	if lines != nil {
		lines.flush()
	}
	if err != nil {
		parser.Close()
		return nil, err
	}
	if res.Status == sandbox.StatusOutputLimit {
		parser.MarkTruncated()
	}
	agg.add(parser.Close())
	return res, nil
}

// build makes a profile's image for the workspace.
func (r *Runner) build(ctx context.Context, sb Sandbox, profile string, obs Observer) error {
	r.log.Info("building the sandbox image before the first run", "profile", profile)
	_, err := sb.Build(ctx, sandbox.BuildOptions{Workspace: r.opts.Root, Profiles: []string{profile},
		Progress: func(p sandbox.BuildProgress) {
			if obs.Building != nil {
				obs.Building(p)
			}
		}})
	if err != nil {
		return fmt.Errorf("building the %s sandbox image: %w", profile, err)
	}
	return nil
}

// runCommand runs an explicit command; its output is parsed as a test
// stream in case it is one (go test -json), and kept either way.
func (r *Runner) runCommand(ctx context.Context, sb Sandbox, id string, t0 time.Time, req Request, obs Observer) (*Outcome, error) {
	profile := req.Profile
	if profile == "" {
		names := sandbox.DetectProfiles(r.opts.Root, sb.Profiles())
		if len(names) == 0 {
			return nil, fmt.Errorf("cannot tell which sandbox profile %s uses (no go.mod, pyproject.toml, package.json...): pass --profile", r.opts.Root)
		}
		profile = names[0]
	}
	prof, ok := sb.Profiles()[profile]
	if !ok {
		return nil, fmt.Errorf("%w: %q", sandbox.ErrUnknownProfile, profile)
	}
	if obs.Started != nil {
		obs.Started(&Started{ID: id, Title: "Running " + strings.Join(req.Cmd, " "), Profiles: []string{profile}})
	}
	agg := newAggregate(obs.Event)
	j := job{profile: profile, cmd: testresults.Command{Argv: req.Cmd, Dir: "."}, workdir: prof.Workdir}
	res, err := r.runJob(ctx, sb, id, j, req, obs, agg)
	if err != nil {
		return nil, err
	}
	out := &Outcome{ID: id, Started: t0, Jobs: []*sandbox.Result{res}, Duration: time.Since(t0)}
	if s := agg.summary(); s.Total > 0 {
		out.Summary = s
	}
	verdict(out, ctx)
	r.finish(ctx, out, req, nil, []records.Command{{Argv: req.Cmd, Dir: "."}}, nil)
	return out, nil
}

// changedFiles resolves the changes an affected run covers.
func (r *Runner) changedFiles(ctx context.Context, req *Request) ([]string, error) {
	if req.Mode != "" && req.Mode != testsel.ModeAffected {
		return nil, nil
	}
	if req.Changed != nil {
		return req.Changed, nil
	}
	since := req.Since
	if since == "" {
		since = r.opts.Since
	}
	if since == "" {
		since = "HEAD"
	}
	set := map[string]bool{}
	git, err := testsel.ChangedSince(ctx, r.opts.Root, since)
	switch {
	case err == nil:
		for _, p := range git {
			set[p] = true
		}
	case req.Since != "":
		return nil, err // the user named a revision: say it is wrong
	default:
		r.log.Debug("no git changes to add", "err", err)
	}
	r.mu.Lock()
	for p := range r.changed {
		set[p] = true
	}
	r.mu.Unlock()
	for p := range req.Overlay {
		set[p] = true
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// verdict names the outcome: the sandbox's cause when a limit or the
// engine ended a job, else the tests' result.
func verdict(out *Outcome, ctx context.Context) {
	if out.Status != "" {
		return
	}
	for _, j := range out.Jobs {
		switch j.Status {
		case sandbox.StatusPassed, sandbox.StatusFailed:
			if j.ExitCode != 0 && out.ExitCode == 0 {
				out.ExitCode = j.ExitCode
			}
			continue
		}
		out.Status, out.Reason, out.ExitCode = string(j.Status), j.Reason, j.ExitCode
		return
	}
	if ctx.Err() != nil {
		out.Status, out.Reason = string(sandbox.StatusCancelled), "the run was cancelled"
		return
	}
	out.Status = "passed"
	if out.ExitCode != 0 || (out.Summary != nil && (out.Summary.Failed > 0 || out.Summary.Unknown > 0)) {
		out.Status = "failed"
		if out.ExitCode == 0 {
			out.ExitCode = 1
		}
	}
}

func noTestsReason(sel *testsel.Selection, changed []string) string {
	switch {
	case sel.Mode == testsel.ModeAffected && len(changed) == 0:
		return "no changes since the last green run: nothing to test"
	case sel.Mode == testsel.ModeAffected:
		return fmt.Sprintf("no tests depend on the %d changed file(s)", len(changed))
	case sel.Mode == testsel.ModeFailed:
		return "the last run had no failed tests to re-run"
	}
	return "no tests found for this " + string(sel.Mode) + " run"
}

func title(sel *testsel.Selection) string {
	switch sel.Mode {
	case testsel.ModeAffected:
		return fmt.Sprintf("Running affected tests in sandbox (%d of %d test units)", sel.Selected, sel.Total)
	case testsel.ModeAll:
		return "Running all tests in sandbox"
	case testsel.ModeFailed:
		return "Re-running failed tests in sandbox"
	case testsel.ModeTest:
		return "Running test in sandbox"
	}
	return "Running tests in sandbox"
}

func jobsCommand(jobs []job) []records.Command {
	var out []records.Command
	for _, j := range jobs {
		out = append(out, records.Command{Argv: j.cmd.Argv, Env: j.cmd.Env, Dir: j.cmd.Dir})
	}
	return out
}

// finish remembers the outcome and writes its record.
func (r *Runner) finish(ctx context.Context, out *Outcome, req Request, changed []string, cmds []records.Command, sel *testsel.Selection) {
	r.mu.Lock()
	r.last = out
	if out.Summary != nil {
		r.failed = failedRefs(out.Summary)
	}
	if out.Status == "passed" && (req.Mode == "" || req.Mode == testsel.ModeAffected || req.Mode == testsel.ModeAll) {
		for _, p := range changed {
			delete(r.changed, p)
		}
	}
	r.mu.Unlock()
	if r.opts.Records == nil {
		return
	}
	rec := r.record(ctx, out, req, changed, cmds, sel)
	if err := r.opts.Records.Write(context.WithoutCancel(ctx), rec); err != nil {
		r.log.Warn("writing the run record", "id", out.ID, "err", err)
		return
	}
	out.Record = rec
	out.RecordPath = path.Join(r.opts.Records.Dir(), rec.ID+".json")
}

// FailedTests returns the last run's failed tests, for "re-run failed".
func (r *Runner) FailedTests() []testsel.TestRef {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]testsel.TestRef(nil), r.failed...)
}
