package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/internal/records"
)

// cmdRuns reads the run records: `runs list` and `runs show ID`.
func cmdRuns(ctx context.Context, env *Env, args []string) int {
	if wantsHelp(args) {
		runsUsage(env.Stdout)
		return ExitOK
	}
	switch args[0] {
	case "list", "ls":
		return runsList(ctx, env, args[1:])
	case "show":
		return runsShow(ctx, env, args[1:])
	}
	fmt.Fprintf(env.Stderr, "aisbxd runs: unknown subcommand %q\n\n", args[0])
	runsUsage(env.Stderr)
	return ExitUsage
}

func runsUsage(w io.Writer) {
	fmt.Fprint(w, `Usage:
  aisbxd runs list [--dir DIR] [--records PATH] [--status S] [--trigger T] [--since D] [--limit N] [--json]
      List the recorded sandbox runs of DIR, newest first.
  aisbxd runs show ID|last [--dir DIR] [--records PATH] [--json|--junit]
      Show one run: what ran, why, on which image and snapshot, the results,
      and how to reproduce it. ID may be a unique prefix.

DIR is the workspace (default "."); records live in DIR/.aisbx/runs unless
aisbx.toml [records] dir or --records says otherwise.
`)
}

// runsFlags are the flags both subcommands take.
type runsFlags struct {
	dir, records string
}

func (f *runsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dir, "dir", ".", "workspace directory")
	fs.StringVar(&f.records, "records", "", "records directory (default: aisbx.toml [records] dir, or DIR/.aisbx/runs)")
}

// store opens the records of the workspace.
func (f *runsFlags) store() (*records.Store, error) {
	root, err := filepath.Abs(f.dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", f.dir, err)
	}
	dir := f.records
	if dir == "" {
		dir = records.DefaultDir(root)
		if l := config.Load(root); l.Config != nil && l.Config.Records.Dir != "" {
			dir = l.Config.Records.Dir
		}
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	return records.Open(dir, records.Options{})
}

func runsList(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("runs list", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	var rf runsFlags
	rf.register(fs)
	status := fs.String("status", "", "only runs with this status (passed, failed, timeout, ...)")
	trigger := fs.String("trigger", "", "only runs started this way (code-action, cli, agent, ...)")
	since := fs.Duration("since", 0, "only runs in the last D (e.g. 24h)")
	limit := fs.Int("limit", 50, "at most N runs (0: all)")
	asJSON := fs.Bool("json", false, "print the records as JSON")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "aisbxd runs list: unexpected argument %q\n", fs.Arg(0))
		return ExitUsage
	}
	if *limit < 0 || *since < 0 {
		fmt.Fprintln(env.Stderr, "aisbxd runs list: --limit and --since must not be negative")
		return ExitUsage
	}
	st, err := rf.store()
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd runs list: %v\n", err)
		return ExitUsage
	}
	f := records.Filter{Status: *status, Trigger: records.Trigger(*trigger), Limit: *limit}
	if *since > 0 {
		f.Since = time.Now().Add(-*since)
	}
	rs, err := st.List(f)
	if err != nil && rs == nil {
		fmt.Fprintf(env.Stderr, "aisbxd runs list: %v\n", err)
		return ExitInternal
	}
	if err != nil { // some records unreadable: list the rest, say so
		fmt.Fprintf(env.Stderr, "aisbxd runs list: %v\n", err)
	}
	if *asJSON {
		if rs == nil {
			rs = []*records.Record{}
		}
		return runsWriteJSON(env, "runs list", rs)
	}
	if len(rs) == 0 {
		fmt.Fprintf(env.Stdout, "no runs recorded in %s\n", st.Dir())
		return ExitOK
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTIME\tTRIGGER\tSTATUS\tTESTS\tDURATION\tSELECTION\tIMAGE")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Time.Local().Format("2006-01-02 15:04:05"),
			r.Trigger, r.Status, runsTestCounts(r.Summary), r.Duration().Round(time.Millisecond), runsSelectionBrief(r.Selection), runsImageBrief(r.Image))
	}
	if err := tw.Flush(); err != nil {
		return ExitInternal
	}
	return ExitOK
}

func runsShow(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("runs show", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	var rf runsFlags
	rf.register(fs)
	asJSON := fs.Bool("json", false, "print the record as JSON")
	asJUnit := fs.Bool("junit", false, "print the results as JUnit XML")
	// The id may come before or after the flags.
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if id == "" && fs.NArg() > 0 {
		id = fs.Arg(0)
	} else if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "aisbxd runs show: unexpected argument %q\n", fs.Arg(0))
		return ExitUsage
	}
	if id == "" {
		fmt.Fprintln(env.Stderr, "aisbxd runs show: which run? give an ID, a unique prefix of one, or \"last\"")
		return ExitUsage
	}
	if *asJSON && *asJUnit {
		fmt.Fprintln(env.Stderr, "aisbxd runs show: --json and --junit are exclusive")
		return ExitUsage
	}
	st, err := rf.store()
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd runs show: %v\n", err)
		return ExitUsage
	}
	r, err := st.Get(id)
	if errors.Is(err, records.ErrNotFound) {
		fmt.Fprintf(env.Stderr, "aisbxd runs show: %v\n", err)
		return ExitUsage
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd runs show: %v\n", err)
		if strings.Contains(err.Error(), "matches") {
			return ExitUsage
		}
		return ExitInternal
	}
	switch {
	case *asJSON:
		return runsWriteJSON(env, "runs show", r)
	case *asJUnit:
		if err := r.WriteJUnit(env.Stdout); err != nil {
			fmt.Fprintf(env.Stderr, "aisbxd runs show: %v\n", err)
			return ExitInternal
		}
		return ExitOK
	}
	runsShowRecord(env.Stdout, r)
	return ExitOK
}

func runsWriteJSON(env *Env, cmd string, v any) int {
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd %s: %v\n", cmd, err)
		return ExitInternal
	}
	return ExitOK
}

// showRecord prints a record for a person: the run, the selection and why,
// the failures with their locations, and how to reproduce it.
func runsShowRecord(w io.Writer, r *records.Record) {
	fmt.Fprintf(w, "run       %s\n", r.ID)
	fmt.Fprintf(w, "time      %s (%s)\n", r.Time.Local().Format(time.RFC3339), r.Trigger)
	status := r.Status
	if r.Reason != "" {
		status += ": " + r.Reason
	}
	fmt.Fprintf(w, "status    %s, exit %d, %s\n", status, r.ExitCode, r.Duration().Round(time.Millisecond))
	fmt.Fprintf(w, "tests     %s\n", runsTestCounts(r.Summary))
	fmt.Fprintf(w, "workspace %s\n", r.Root)
	if r.AisbxdVersion != "" {
		fmt.Fprintf(w, "aisbxd    %s\n", r.AisbxdVersion)
	}
	if len(r.Changed) > 0 {
		fmt.Fprintf(w, "\nchanged files (%d):\n", len(r.Changed))
		for _, c := range r.Changed {
			switch {
			case c.Deleted:
				fmt.Fprintf(w, "  %s (deleted)\n", c.Path)
			case len(c.SHA256) >= 12:
				fmt.Fprintf(w, "  %s  sha256:%s…\n", c.Path, c.SHA256[:12])
			default:
				fmt.Fprintf(w, "  %s\n", c.Path)
			}
		}
	}
	sel := r.Selection
	fmt.Fprintf(w, "\nselection: %s, %d of %d test units\n", runsOrDash(sel.Mode), sel.Selected, sel.Total)
	if sel.Fallback != "" {
		fmt.Fprintf(w, "  whole suite: %s\n", sel.Fallback)
	}
	for _, it := range sel.Items {
		fmt.Fprintf(w, "  %s: %s\n", it.Unit, it.Reason)
	}
	var failed, skipped int
	for _, t := range r.Tests {
		switch t.Status {
		case "failed", "unknown":
			failed++
		case "skipped":
			skipped++
		}
	}
	if failed > 0 {
		fmt.Fprintf(w, "\nfailures:\n")
		for _, t := range r.Tests {
			if t.Status != "failed" && t.Status != "unknown" {
				continue
			}
			where := t.Package
			if t.Location != nil {
				where = fmt.Sprintf("%s:%d", t.Location.File, t.Location.Line)
			} else if t.File != "" {
				where = t.File
			}
			fmt.Fprintf(w, "  ✗ %s (%s)\n", t.Name, where)
			if t.Message != "" {
				fmt.Fprintf(w, "      %s\n", t.Message)
			}
		}
	}
	if len(r.Provenance) > 0 {
		fmt.Fprintf(w, "\nAI edits:\n")
		for _, p := range r.Provenance {
			fmt.Fprintf(w, "  %s %s (%s, session %s)\n", p.File, runsRangesBrief(p.Ranges), strings.TrimSpace(p.Tool+" "+p.Model), runsOrDash(p.Session))
		}
	}
	if len(r.Dependencies) > 0 {
		fmt.Fprintf(w, "\ndependencies: %d (runs show --json lists them)\n", len(r.Dependencies))
	}
	fmt.Fprintf(w, "\nreproduce:\n")
	for _, line := range strings.Split(strings.TrimRight(r.Reproduce(), "\n"), "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
}

func runsTestCounts(s records.Summary) string {
	parts := []string{fmt.Sprintf("%d passed", s.Passed)}
	if s.Failed > 0 {
		parts = append([]string{fmt.Sprintf("%d failed", s.Failed)}, parts...)
	}
	if s.Skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", s.Skipped))
	}
	if s.Unknown > 0 {
		parts = append(parts, fmt.Sprintf("%d interrupted", s.Unknown))
	}
	return strings.Join(parts, ", ")
}

func runsSelectionBrief(s records.Selection) string {
	if s.Mode == "" {
		return "-"
	}
	if s.Fallback != "" {
		return s.Mode + " (whole suite)"
	}
	return fmt.Sprintf("%s %d/%d", s.Mode, s.Selected, s.Total)
}

func runsImageBrief(img records.Image) string {
	ref := img.Ref
	if img.Digest != "" {
		d := strings.TrimPrefix(img.Digest, "sha256:")
		if len(d) > 12 {
			d = d[:12]
		}
		if ref == "" {
			return "sha256:" + d
		}
		ref += " (" + d + ")"
	}
	return runsOrDash(ref)
}

func runsRangesBrief(rs []records.Range) string {
	var parts []string
	for _, r := range rs {
		if r.StartLine == r.EndLine {
			parts = append(parts, fmt.Sprintf("L%d", r.StartLine))
		} else {
			parts = append(parts, fmt.Sprintf("L%d-%d", r.StartLine, r.EndLine))
		}
	}
	return strings.Join(parts, ",")
}

func runsOrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
