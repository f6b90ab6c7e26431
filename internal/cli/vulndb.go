package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/aisbx/aisbx/checks/vulns"
	"github.com/aisbx/aisbx/internal/textpos"
	"github.com/aisbx/aisbx/internal/vulndb"
)

const vulndbUsage = `Usage: aisbxd vulndb <command> [flags]

Manages the local copy of the OSV vulnerability database (Go, PyPI, npm).
It lives in $AISBX_VULNDB_DIR, else <user cache dir>/aisbx/vulndb.

Commands:
  import [--ecosystem E,...] FILE.zip|DIR   load OSV exports (<ecosystem>/all.zip) or advisory JSON
  update [--ecosystem E,...] [--timeout D]  download the exports from OSV ($AISBX_OSV_URL overrides the site)
  status [--json]                           show what is loaded and when
  scan [--json] [DIR]                       list the known vulnerabilities of DIR's dependencies
`

// cmdVulnDB manages the OSV store.
func cmdVulnDB(ctx context.Context, env *Env, args []string) int {
	if wantsHelp(args) {
		fmt.Fprint(env.Stderr, vulndbUsage)
		if len(args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	dir, err := vulndb.DefaultDir(env.Getenv)
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd vulndb: %v\n", err)
		return ExitUsage
	}
	switch args[0] {
	case "import":
		return vulndbImport(ctx, env, dir, args[1:])
	case "update":
		return vulndbUpdate(ctx, env, dir, args[1:])
	case "status":
		return vulndbStatus(env, dir, args[1:])
	case "scan":
		return vulndbScan(ctx, env, dir, args[1:])
	}
	fmt.Fprintf(env.Stderr, "aisbxd vulndb: unknown command %q\n\n%s", args[0], vulndbUsage)
	return ExitUsage
}

func ecosystemsFlag(fs *flag.FlagSet) *string {
	return fs.String("ecosystem", "", "comma-separated `ecosystems` to load: Go, PyPI, npm (default: all, or the one a <ecosystem>/all.zip path names)")
}

func parseEcosystems(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	for _, e := range strings.Split(s, ",") {
		e = strings.TrimSpace(e)
		found := false
		for _, k := range vulndb.Ecosystems {
			if strings.EqualFold(e, k) {
				out, found = append(out, k), true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown ecosystem %q (want %s)", e, strings.Join(vulndb.Ecosystems, ", "))
		}
	}
	return out, nil
}

func vulndbImport(ctx context.Context, env *Env, dir string, args []string) int {
	fs := flag.NewFlagSet("vulndb import", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	ecoFlag := ecosystemsFlag(fs)
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(env.Stderr, "Usage: aisbxd vulndb import [--ecosystem E,...] FILE.zip|DIR")
		return ExitUsage
	}
	ecos, err := parseEcosystems(*ecoFlag)
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd vulndb import: %v\n", err)
		return ExitUsage
	}
	start := time.Now()
	res, err := vulndb.Import(ctx, dir, fs.Arg(0), vulndb.ImportOptions{Ecosystems: ecos})
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd vulndb import: %v\n", err)
		return ExitInternal
	}
	for _, m := range res.Stored {
		fmt.Fprintf(env.Stdout, "%s: %d advisories for %d packages (newest %s)\n", m.Ecosystem, m.Advisories, m.Packages, m.NewestModified.Format("2006-01-02"))
	}
	fmt.Fprintf(env.Stdout, "read %d files, skipped %d, into %s in %s\n", res.Read, res.Skipped, dir, time.Since(start).Round(time.Millisecond))
	return ExitOK
}

func vulndbUpdate(ctx context.Context, env *Env, dir string, args []string) int {
	fs := flag.NewFlagSet("vulndb update", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	ecoFlag := ecosystemsFlag(fs)
	timeout := fs.Duration("timeout", 15*time.Minute, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(env.Stderr, "Usage: aisbxd vulndb update [--ecosystem E,...] [--timeout D]")
		return ExitUsage
	}
	ecos, err := parseEcosystems(*ecoFlag)
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd vulndb update: %v\n", err)
		return ExitUsage
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	_, err = vulndb.Update(ctx, dir, vulndb.UpdateOptions{
		BaseURL:    env.Getenv(vulndb.BaseURLEnv),
		Ecosystems: ecos,
		Log:        env.Stdout,
	})
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd vulndb update: %s\n", strings.TrimPrefix(err.Error(), "vulndb: "))
		return ExitInternal
	}
	return ExitOK
}

func vulndbStatus(env *Env, dir string, args []string) int {
	fs := flag.NewFlagSet("vulndb status", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	metas, err := vulndb.Status(dir)
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		out := struct {
			Dir        string        `json:"dir"`
			Ecosystems []vulndb.Meta `json:"ecosystems"`
			Error      string        `json:"error,omitempty"`
		}{Dir: dir, Ecosystems: metas}
		if out.Ecosystems == nil {
			out.Ecosystems = []vulndb.Meta{}
		}
		if err != nil {
			out.Error = err.Error()
		}
		enc.Encode(out)
	} else {
		fmt.Fprintf(env.Stdout, "vulnerability database: %s\n", dir)
		if len(metas) == 0 {
			fmt.Fprintln(env.Stdout, "nothing loaded: run `aisbxd vulndb update`, or `aisbxd vulndb import FILE.zip` with OSV's <ecosystem>/all.zip")
		} else {
			tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ECOSYSTEM\tADVISORIES\tPACKAGES\tNEWEST ADVISORY\tIMPORTED\tSIZE\tSOURCE")
			for _, m := range metas {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s (%s ago)\t%s\t%s\n", m.Ecosystem, m.Advisories, m.Packages,
					m.NewestModified.Format("2006-01-02"), m.ImportedAt.Local().Format("2006-01-02 15:04"),
					time.Since(m.ImportedAt).Round(time.Minute), humanBytes(m.Bytes), m.Source) // humanBytes: image.go
			}
			tw.Flush()
		}
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd vulndb status: %v\n", err)
		return ExitInternal
	}
	return ExitOK
}

// scanFinding is one line of `vulndb scan --json`.
type scanFinding struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Advisory string `json:"advisory"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// vulndbScan runs the vulns check over a tree's manifests and lockfiles:
// the dependency part of `aisbxd check`, on its own.
func vulndbScan(ctx context.Context, env *Env, dir string, args []string) int {
	fs := flag.NewFlagSet("vulndb scan", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	root := "."
	if fs.NArg() > 1 {
		fmt.Fprintln(env.Stderr, "Usage: aisbxd vulndb scan [--json] [DIR]")
		return ExitUsage
	}
	if fs.NArg() == 1 {
		root = fs.Arg(0)
	}
	root, err := filepath.Abs(root)
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd vulndb scan: %v\n", err)
		return ExitUsage
	}
	metas, err := vulndb.Status(dir)
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd vulndb scan: %v\n", err)
		return ExitInternal
	}
	if len(metas) == 0 {
		fmt.Fprintf(env.Stderr, "aisbxd vulndb scan: no vulnerability database in %s; run `aisbxd vulndb update` or `aisbxd vulndb import`\n", dir)
		return ExitInternal
	}
	check := vulns.New(vulns.Options{DBDir: dir})
	defer check.Close()
	pfs, err := check.Scan(ctx, root)
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd vulndb scan: %v\n", err)
		return ExitInternal
	}
	var found []scanFinding
	lines := map[string]*textpos.Index{}
	for _, pf := range pfs {
		idx := lines[pf.Path]
		if idx == nil {
			content, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(pf.Path)))
			if err != nil {
				fmt.Fprintf(env.Stderr, "aisbxd vulndb scan: %v\n", err)
				return ExitInternal
			}
			idx = textpos.NewIndex(content)
			lines[pf.Path] = idx
		}
		fd := pf.Finding
		found = append(found, scanFinding{Path: pf.Path, Line: idx.LineOf(fd.Start) + 1, Advisory: fd.Rule, Severity: fd.Severity.String(), Message: fd.Message})
	}
	printScan(env.Stdout, found, *asJSON)
	if len(found) > 0 {
		return ExitFailure
	}
	return ExitOK
}

func printScan(w io.Writer, found []scanFinding, asJSON bool) {
	if asJSON {
		if found == nil {
			found = []scanFinding{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(struct {
			Findings []scanFinding `json:"findings"`
		}{found})
		return
	}
	for _, f := range found {
		fmt.Fprintf(w, "%s:%d: %s [%s] %s\n", f.Path, f.Line, f.Advisory, f.Severity, f.Message)
	}
	fmt.Fprintf(w, "%d known vulnerabilities\n", len(found))
}
