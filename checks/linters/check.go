package linters

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/aisbx/aisbx/checks"
)

// DefaultTimeout bounds one linter run. Go's tools type-check the package
// and its dependencies on a cold cache, which takes seconds.
const DefaultTimeout = 20 * time.Second

// Options selects and tunes the linters.
type Options struct {
	// Enabled names the tools to run ("go vet", "staticcheck",
	// "golangci-lint", "ruff", "bandit", "eslint", "shellcheck"). Nil means
	// all of them; an empty non-nil slice means none.
	Enabled []string
	// Timeout bounds each tool run. Zero means DefaultTimeout.
	Timeout time.Duration
}

// Check runs the user's linters. It is safe for concurrent use.
type Check struct {
	tools   []*tool
	timeout time.Duration
	sem     chan struct{} // bounds concurrent tool processes
	paths   *pathCache
	pkgs    *pkgCache
	batches batches // planned by Prepare (the CLI)
}

// New returns a Check running the enabled tools. It fails on a tool name it
// does not know, so that a typo in aisbx.toml is not silently ignored.
func New(opts Options) (*Check, error) {
	c := &Check{
		timeout: opts.Timeout,
		sem:     make(chan struct{}, max(runtime.GOMAXPROCS(0), 1)),
		paths:   newPathCache(),
		pkgs:    newPkgCache(),
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if opts.Enabled == nil {
		c.tools = allTools()
		return c, nil
	}
	seen := map[string]bool{}
	for _, name := range opts.Enabled {
		t := toolByName(name)
		if t == nil {
			return nil, fmt.Errorf("linters: unknown tool %q (known: %s)", name, strings.Join(ToolNames(), ", "))
		}
		if !seen[t.name] {
			seen[t.name] = true
			c.tools = append(c.tools, t)
		}
	}
	return c, nil
}

// Name implements checks.Check.
func (c *Check) Name() string { return "linters" }

// Uncacheable tells the engine not to cache linter findings by the file's
// content alone: go vet's findings in one file change when another file of
// its package does. The per-package cache (pkgcache.go) keys on every
// file's content instead.
func (c *Check) Uncacheable() {}

// Applies reports whether an enabled tool lints f's language in f's state
// (tools that read files themselves need f on disk). Whether the tool is
// installed is looked up in Run, and cached.
func (c *Check) Applies(f *checks.File) bool {
	for _, t := range c.tools {
		if t.handles(f) {
			return true
		}
	}
	return false
}

// Run runs every enabled, installed tool that handles f, concurrently, and
// returns their findings. A tool that fails adds to the error; the others'
// findings are still returned.
func (c *Check) Run(ctx context.Context, f *checks.File) ([]checks.Finding, error) {
	type result struct {
		findings []checks.Finding
		err      error
	}
	var applicable []*tool
	for _, t := range c.tools {
		if t.handles(f) {
			applicable = append(applicable, t)
		}
	}
	results := make([]result, len(applicable))
	var wg sync.WaitGroup
	for i, t := range applicable {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					results[i].err = fmt.Errorf("%s: adapter panicked: %v", t.name, p)
				}
			}()
			fs, err := c.runTool(ctx, t, f)
			results[i] = result{fs, err}
			if err != nil {
				results[i].err = fmt.Errorf("%s: %w", t.name, err)
			}
		}()
	}
	wg.Wait()
	var out []checks.Finding
	var errs []error
	for _, r := range results {
		out = append(out, r.findings...)
		if r.err != nil {
			errs = append(errs, r.err)
		}
	}
	sortFindings(out)
	return out, errors.Join(errs...)
}

func (c *Check) runTool(ctx context.Context, t *tool, f *checks.File) ([]checks.Finding, error) {
	if t.lintMany != nil {
		if ds, ok, err := c.fromBatch(ctx, t, f); ok {
			if err != nil {
				return nil, err
			}
			return toFindings(t, f, ds), nil
		}
	}
	bin := c.paths.find(t, f)
	if bin == "" {
		return nil, nil // not installed: skipped quietly, listed by Detect
	}
	env := &toolEnv{bin: bin, timeout: c.timeout, sem: c.sem, check: c}
	ds, err := t.lint(ctx, env, f)
	if err != nil {
		return nil, err
	}
	return toFindings(t, f, ds), nil
}

// toolEnv is what an adapter gets to run its tool.
type toolEnv struct {
	bin     string
	timeout time.Duration
	sem     chan struct{}
	check   *Check
}

// lintOutput runs the tool (as exec does) and returns its stdout, for the
// tools that exit 0 when they find nothing and 1 when they find something:
// any other exit is a failure, reported with what the tool said.
func (e *toolEnv) lintOutput(ctx context.Context, args []string, dir string, stdin []byte) ([]byte, error) {
	o, err := e.exec(ctx, args, dir, stdin)
	if err != nil {
		return nil, err
	}
	if o.ExitCode != 0 && o.ExitCode != 1 {
		return nil, failure(o)
	}
	return o.Stdout, nil
}

// exec runs the tool, waiting for a free slot first: the CLI checks many
// files at once and must not start hundreds of linters together.
func (e *toolEnv) exec(ctx context.Context, args []string, dir string, stdin []byte) (outcome, error) {
	select {
	case e.sem <- struct{}{}:
	case <-ctx.Done():
		return outcome{}, ctx.Err()
	}
	defer func() { <-e.sem }()
	return run(ctx, e.timeout, invocation{Bin: e.bin, Args: args, Dir: dir, Stdin: stdin})
}
