package vulns

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/inventory"
	"github.com/aisbx/aisbx/internal/vulndb"
)

// Options configures the check. The zero value opens the store in
// vulndb.DefaultDir and uses Go reachability.
type Options struct {
	// DBDir is the OSV store; "" means vulndb.DefaultDir(nil).
	DBDir string
	// Store, when set, is used instead of opening DBDir (the daemon can
	// share one store between the check and other users).
	Store *vulndb.Store
	// NoReachability keeps Go advisories at their database severity even
	// when the module's code never uses the vulnerable symbols.
	NoReachability bool
	// RefreshEvery is how often to look for a newer store on disk (an
	// update run meanwhile). Zero means one minute.
	RefreshEvery time.Duration
	// Logger receives the one-time notice that no database is loaded.
	// Nil means slog.Default().
	Logger *slog.Logger
}

// Check reports known-vulnerable dependencies. It is safe for concurrent
// use.
type Check struct {
	opts  Options
	reach *reachIndex

	mu          sync.Mutex
	store       *vulndb.Store
	ownStore    bool
	lastRefresh time.Time
	warnedEmpty bool

	rules sync.Map // advisory id -> checks.Rule
}

var _ checks.Check = (*Check)(nil)
var _ checks.RuleLister = (*Check)(nil)

// New returns the check. Opening the store is deferred to the first Run,
// so that a missing or damaged database never stops the engine.
func New(opts Options) *Check {
	if opts.RefreshEvery <= 0 {
		opts.RefreshEvery = time.Minute
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Check{opts: opts, reach: newReachIndex(), store: opts.Store}
}

// Name implements checks.Check.
func (c *Check) Name() string { return "vulns" }

// Applies implements checks.Check: manifests and lockfiles.
func (c *Check) Applies(f *checks.File) bool {
	k, ok := inventory.KindOf(f.Path)
	return ok && k != inventory.KindGoSum
}

// Close releases the store when the check opened it.
func (c *Check) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ownStore && c.store != nil {
		err := c.store.Close()
		c.store = nil
		return err
	}
	return nil
}

// db returns the store, opening or refreshing it as needed; nil when no
// database has been imported.
func (c *Check) db() (*vulndb.Store, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.store == nil {
		dir := c.opts.DBDir
		if dir == "" {
			d, err := vulndb.DefaultDir(nil)
			if err != nil {
				return nil, err
			}
			dir = d
		}
		s, err := vulndb.Open(dir)
		if err != nil {
			return nil, err
		}
		c.store, c.ownStore, c.lastRefresh = s, true, time.Now()
	} else if time.Since(c.lastRefresh) >= c.opts.RefreshEvery {
		c.lastRefresh = time.Now()
		if err := c.store.Refresh(); err != nil {
			return nil, err
		}
	}
	if len(c.store.Loaded()) == 0 {
		if !c.warnedEmpty {
			c.warnedEmpty = true
			c.opts.Logger.Info("vulns: no vulnerability database loaded; run `aisbxd vulndb update` or `aisbxd vulndb import FILE.zip`", "dir", c.store.Dir())
		}
		return nil, nil
	}
	return c.store, nil
}

// Run implements checks.Check.
func (c *Check) Run(ctx context.Context, f *checks.File) ([]checks.Finding, error) {
	dir := filepath.Dir(f.Path)
	return c.run(ctx, fileInput{
		path:    f.Path,
		content: f.Content,
		sibling: func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) },
		exists: func(name string) bool {
			_, err := os.Stat(filepath.Join(dir, name))
			return err == nil
		},
		goDir: dir,
	})
}

// fileInput is a manifest and how to see the files beside it: on disk for
// Run, in a git revision for the baseline of Introduced.
type fileInput struct {
	path    string
	content []byte
	sibling inventory.Sibling
	exists  func(name string) bool
	goDir   string // where the module's Go code is; "" skips reachability
}

// lockfilesFor lists, for a manifest, the lockfiles that resolve its
// ranges; when one of them is present the lockfile reports instead.
var lockfilesFor = map[inventory.Kind][]string{
	inventory.KindPackageJSON: {"package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock"},
	inventory.KindPyProject:   {"poetry.lock", "uv.lock"},
}

func (c *Check) run(ctx context.Context, in fileInput) ([]checks.Finding, error) {
	kind, ok := inventory.KindOf(in.path)
	if !ok || kind == inventory.KindGoSum {
		return nil, nil
	}
	// Each vulnerable package is reported once: by the lockfile when there
	// is one (it says what gets installed), else by the manifest.
	for _, lf := range lockfilesFor[kind] {
		if in.exists(lf) {
			return nil, nil
		}
	}
	store, err := c.db()
	if err != nil || store == nil {
		return nil, err
	}
	src, err := inventory.Parse(in.path, in.content, in.sibling)
	if err != nil {
		return nil, err
	}
	var usage *goUsage
	var out []checks.Finding
	for _, p := range src.Packages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ms, err := store.Match(p)
		if err != nil {
			// One package with a version the ecosystem cannot parse
			// should not hide the others.
			c.opts.Logger.Debug("vulns: skipping package", "package", p.Name, "version", p.Version, "err", err)
			continue
		}
		if len(ms) == 0 {
			continue
		}
		if p.Ecosystem == inventory.Go && usage == nil && !c.opts.NoReachability && in.goDir != "" {
			if usage, err = c.reach.usage(ctx, in.goDir); err != nil {
				if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
					return nil, err
				}
				c.opts.Logger.Debug("vulns: reachability unavailable", "dir", in.goDir, "err", err)
				usage = &goUsage{unknown: true}
			}
		}
		best := bestFix(p, ms)
		for _, m := range ms {
			out = append(out, c.finding(kind, p, m, best, usage))
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Start != out[j].Start {
			return out[i].Start < out[j].Start
		}
		return out[i].Rule < out[j].Rule
	})
	return out, nil
}

// bestFix is the lowest version that fixes every matched advisory of a
// package, when each names a fix: the highest of their fixed versions.
func bestFix(p inventory.Package, ms []vulndb.Match) string {
	best := ""
	for _, m := range ms {
		if m.Fixed == "" {
			return ""
		}
		if best == "" {
			best = m.Fixed
			continue
		}
		if c, err := vulndb.CompareVersions(string(p.Ecosystem), m.Fixed, best); err == nil && c > 0 {
			best = m.Fixed
		}
	}
	return best
}

// SecuritySeverity maps a level to GitHub code scanning's score when no
// CVSS score is known.
func securitySeverity(sev vulndb.Severity) float64 {
	if sev.Score > 0 {
		return sev.Score
	}
	switch sev.Level {
	case vulndb.LevelCritical:
		return 9.5
	case vulndb.LevelHigh:
		return 8.0
	case vulndb.LevelMedium:
		return 5.5
	case vulndb.LevelLow:
		return 2.0
	}
	return 5.0
}

// Rules implements checks.RuleLister. Advisory ids are the rule ids, so the
// list holds the advisories this check has reported so far; call it after
// the run (the SARIF writer does).
func (c *Check) Rules() []checks.Rule {
	var out []checks.Rule
	c.rules.Range(func(_, v any) bool {
		out = append(out, v.(checks.Rule))
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func (c *Check) remember(adv *vulndb.Advisory, sev vulndb.Severity, s checks.Severity) {
	if _, ok := c.rules.Load(adv.ID); ok {
		return
	}
	c.rules.Store(adv.ID, checks.Rule{
		ID:               adv.ID,
		Category:         checks.CategoryDependency,
		Severity:         s,
		Title:            advisoryTitle(adv),
		Description:      fmt.Sprintf("A dependency version affected by %s. Upgrade to a fixed version.", idWithAliases(adv)),
		DocURL:           DocURL(adv.ID),
		SecuritySeverity: securitySeverity(sev),
	})
}

// DocURL is the page that explains an advisory.
func DocURL(id string) string { return "https://osv.dev/vulnerability/" + id }

func idWithAliases(adv *vulndb.Advisory) string {
	if len(adv.Aliases) == 0 {
		return adv.ID
	}
	return adv.ID + " (" + strings.Join(adv.Aliases, ", ") + ")"
}

// advisoryTitle is the summary, or the first sentence of the details (the
// Go database writes no summaries).
func advisoryTitle(adv *vulndb.Advisory) string {
	s := strings.TrimSpace(adv.Summary)
	if s == "" {
		s = strings.TrimSpace(adv.Details)
		if i := strings.Index(s, ". "); i > 0 {
			s = s[:i]
		}
		s = strings.TrimSuffix(s, ".")
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}
