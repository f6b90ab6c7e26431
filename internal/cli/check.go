package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/aisbx/aisbx/checks/vulns"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/checks/builtin"
	"github.com/aisbx/aisbx/checks/report"
	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/internal/version"
)

const checkUsage = "check [--format text|json|sarif|junit] [--fail-on error|warning|info|never] [--changed [--since REV]] [--output FILE] [--config FILE] [PATH...]"

// cmdCheck runs the preflight checks over files, the CI gate: it walks the
// paths (default "."), respecting .gitignore and checks.exclude, skipping
// binaries and files over checks.max_file_size, and exits 1 when a finding
// reaches --fail-on, 2 on usage or configuration errors.
func cmdCheck(ctx context.Context, env *Env, args []string) int {
	start := time.Now()
	fs := newFlagSet("check", checkUsage, env)
	format := fs.String("format", "text", "output format: "+strings.Join(report.Formats, ", "))
	failOn := fs.String("fail-on", "", "exit 1 when a finding is at least this severe: error, warning, info or never (default: checks.fail_on, itself error)")
	changed := fs.Bool("changed", false, "check only files changed since --since (git diff plus untracked files)")
	since := fs.String("since", "", "the git revision --changed compares against (default HEAD; implies --changed)")
	output := fs.String("output", "", "write the report to this file instead of stdout")
	configFile := fs.String("config", "", "read this config file instead of the workspace's aisbx.toml")
	paths, code := parseInterspersed(fs, args)
	if code >= 0 {
		return code
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "aisbxd check: "+format+"\n", a...)
		return ExitUsage
	}
	if !contains(report.Formats, *format) {
		return usageErr("unknown --format %q (want %s)", *format, strings.Join(report.Formats, ", "))
	}
	if *failOn != "" && !contains(failOnValues, *failOn) {
		return usageErr("unknown --fail-on %q (want %s)", *failOn, strings.Join(failOnValues, ", "))
	}
	if *since != "" {
		*changed = true
	} else {
		*since = "HEAD"
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	abs, err := absPaths(paths)
	if err != nil {
		return usageErr("%v", err)
	}
	root := workspaceRoot(abs[0])

	cfg, ok := loadCheckConfig(env, root, *configFile)
	if !ok {
		return ExitUsage
	}
	threshold := *failOn
	if threshold == "" {
		threshold = cfg.Checks.FailOn
	}
	engine, err := engineFactory(root, cfg)
	if err != nil {
		return usageErr("configuration: %v", err)
	}

	files, err := selectFiles(ctx, root, abs, cfg.Checks.Exclude)
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd check: %v\n", err)
		return ExitInternal
	}
	if *changed {
		set, err := changedFiles(ctx, root, *since)
		if err != nil {
			return usageErr("--changed: %v", err)
		}
		kept := files[:0]
		for _, f := range files {
			if set[f] {
				kept = append(kept, f)
			}
		}
		files = kept
	}

	res := scanFiles(ctx, engine, root, files, int64(cfg.Checks.MaxFileSize))
	if *changed {
		// A changed lockfile still pins everything it pinned before: the
		// gate is for vulnerabilities the change brings in.
		if err := dropKnownVulns(ctx, engine, root, *since, &res); err != nil {
			fmt.Fprintf(env.Stderr, "aisbxd check: warning: --changed: %v (reporting every vulnerability of the changed files)\n", err)
		}
	}
	if ctx.Err() != nil {
		fmt.Fprintf(env.Stderr, "aisbxd check: interrupted: %v\n", ctx.Err())
		return ExitInternal
	}
	for _, e := range res.errors {
		fmt.Fprintf(env.Stderr, "aisbxd check: warning: %s: %s: %s\n", relOrAbs(root, e.Path), e.Check, e.Message)
	}
	rep := &report.Report{
		Root:         root,
		Files:        res.files,
		FilesScanned: res.scanned,
		BytesScanned: res.bytes,
		Duration:     time.Since(start),
		Rules:        builtin.Rules(engine),
		Version:      version.String(),
	}
	if *format == "sarif" || *format == "junit" {
		rep.Errors = res.errors // already on stderr; text and JSON keep stdout for findings
	}
	if code := writeReport(env, rep, *format, *output); code != ExitOK {
		return code
	}
	if gateFails(rep, threshold) {
		return ExitFailure
	}
	return ExitOK
}

var failOnValues = []string{"error", "warning", "info", "never"}

// gateFails reports whether a finding reaches threshold.
func gateFails(r *report.Report, threshold string) bool {
	if threshold == "never" {
		return false
	}
	min, err := checks.ParseSeverity(threshold)
	if err != nil {
		min = checks.SeverityError
	}
	for _, f := range r.Files {
		for _, fd := range f.Findings {
			if fd.Severity.AtLeast(min) {
				return true
			}
		}
	}
	return false
}

// parseInterspersed parses flags wherever they appear among the paths, so
// that `aisbxd check . --format json` works as users type it.
// Everything after "--" is a path.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, int) {
	var literal []string
	for i, a := range args {
		if a == "--" {
			args, literal = args[:i], args[i+1:]
			break
		}
	}
	var paths []string
	for {
		if code := parse(fs, args); code >= 0 {
			return nil, code
		}
		args = fs.Args()
		if len(args) == 0 {
			return append(paths, literal...), -1
		}
		paths = append(paths, args[0])
		args = args[1:]
	}
}

func absPaths(paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		a, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if _, err := os.Stat(a); err != nil {
			return nil, fmt.Errorf("%s: no such file or directory", p)
		}
		out = append(out, a)
	}
	return out, nil
}

// loadCheckConfig loads the user's config and the workspace's (or
// --config's) file, printing every problem with its file and line. ok is
// false when the config has errors.
func loadCheckConfig(env *Env, root, file string) (*config.Config, bool) {
	var loaded *config.Loaded
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintf(env.Stderr, "aisbxd check: --config: %v\n", err)
			return nil, false
		}
		var layers []config.Layer
		if up := config.UserPath(); up != "" {
			if d, err := os.ReadFile(up); err == nil {
				layers = append(layers, config.Layer{Path: up, Data: d})
			}
		}
		loaded = config.LoadLayers(append(layers, config.Layer{Path: file, Data: data})...)
	} else {
		loaded = config.Load(root)
	}
	for _, p := range loaded.Problems {
		fmt.Fprintln(env.Stderr, p.String())
	}
	if loaded.Config == nil {
		fmt.Fprintln(env.Stderr, "aisbxd check: the configuration has errors; fix them and run again")
		return nil, false
	}
	return loaded.Config, true
}

// writeReport writes to --output or stdout; colour only for text on a
// terminal, and never when NO_COLOR is set.
func writeReport(env *Env, rep *report.Report, format, output string) int {
	var w io.Writer = env.Stdout
	var f *os.File
	if output != "" {
		var err error
		if f, err = os.Create(output); err != nil {
			fmt.Fprintf(env.Stderr, "aisbxd check: %v\n", err)
			return ExitInternal
		}
		w = f
	}
	opts := report.Options{Color: output == "" && report.IsTerminal(env.Stdout) && env.Getenv("NO_COLOR") == ""}
	err := report.Write(w, format, rep, opts)
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd check: writing the report: %v\n", err)
		return ExitInternal
	}
	return ExitOK
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func relOrAbs(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return path
}

// dropKnownVulns removes vulnerability findings that the revision already
// had, keeping those the change introduces.
func dropKnownVulns(ctx context.Context, engine *checks.Engine, root, rev string, res *scanResult) error {
	if rev == "" {
		rev = "HEAD"
	}
	for _, c := range engine.Checks() {
		vc, ok := c.(*vulns.Check)
		if !ok {
			continue
		}
		base, err := vc.BaselineAt(ctx, root, rev)
		if err != nil {
			return err
		}
		for i := range res.files {
			ff := &res.files[i]
			rel := relOrAbs(root, ff.Path)
			kept := ff.Findings[:0]
			for _, f := range ff.Findings {
				if f.Check == "vulns" && base.Has(rel, f) {
					continue
				}
				kept = append(kept, f)
			}
			ff.Findings = kept
		}
	}
	return nil
}
