package builtin

import (
	"fmt"
	"sort"
	"time"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/checks/dangerous"
	"github.com/aisbx/aisbx/checks/deps"
	"github.com/aisbx/aisbx/checks/linters"
	"github.com/aisbx/aisbx/checks/secrets"
	"github.com/aisbx/aisbx/checks/vulns"
	"github.com/aisbx/aisbx/internal/config"
)

// CheckNames lists the checks NewEngine knows, in the order it runs them.
var CheckNames = []string{"secrets", "dangerous", "deps", "linters", "vulns"}

// NewEngine builds the engine for the workspace at root from cfg: the checks
// named in checks.enabled, each configured from its own section, with
// checks.timeout, checks.disabled_rules and checks.severity applied. It
// fails on a configuration a check rejects (an allowlist regex that does not
// compile, an unknown linter), so that the caller can report it.
func NewEngine(root string, cfg *config.Config) (*checks.Engine, error) {
	if cfg == nil {
		cfg = config.Defaults()
	}
	opts, err := engineOptions(cfg)
	if err != nil {
		return nil, err
	}
	var list []checks.Check
	seen := map[string]bool{}
	for _, name := range cfg.Checks.Enabled {
		if seen[name] {
			continue
		}
		seen[name] = true
		c, err := newCheck(name, root, cfg)
		if err != nil {
			return nil, err
		}
		if name == "linters" {
			// The linters check bounds each tool run by linters.timeout
			// itself; a file's run may also queue behind other files' tools
			// (a file has up to three Go linters), so the engine's bound is
			// a backstop well above it. The other checks keep
			// checks.timeout.
			lt := cfg.Linters.Timeout.D()
			if lt <= 0 {
				lt = linters.DefaultTimeout
			}
			opts.CheckTimeouts = map[string]time.Duration{"linters": 3*lt + time.Second}
		}
		list = append(list, c)
	}
	return checks.NewEngine(opts, list...), nil
}

func engineOptions(cfg *config.Config) (checks.Options, error) {
	opts := checks.Options{
		Timeout:       cfg.Checks.Timeout.D(),
		DisabledRules: cfg.Checks.DisabledRules,
		MaxFileSize:   int(cfg.Checks.MaxFileSize),
	}
	if opts.Timeout <= 0 {
		opts.Timeout = checks.DefaultTimeout
	}
	if len(cfg.Checks.Severity) > 0 {
		opts.Severity = make(map[string]checks.Severity, len(cfg.Checks.Severity))
		for rule, s := range cfg.Checks.Severity {
			sev, err := checks.ParseSeverity(s)
			if err != nil {
				return checks.Options{}, fmt.Errorf("checks.severity.%s: %w", rule, err)
			}
			opts.Severity[rule] = sev
		}
	}
	return opts, nil
}

func newCheck(name, root string, cfg *config.Config) (checks.Check, error) {
	switch name {
	case "secrets":
		return secrets.New(secrets.Options{
			Allowlist: secrets.Allowlist{
				Regexes:      cfg.Secrets.Allowlist.Regexes,
				Paths:        cfg.Secrets.Allowlist.Paths,
				Stopwords:    cfg.Secrets.Allowlist.Stopwords,
				Fingerprints: cfg.Secrets.Allowlist.Fingerprints,
			},
			EntropyThreshold:  cfg.Secrets.EntropyThreshold,
			UseGitleaksConfig: cfg.Secrets.UseGitleaksConfig,
			// Disabled here, a rule is not even scanned for; the engine's
			// list only hides findings. The check rejects ids it does not
			// own, so pass only its own.
			DisabledRules: ownRules(cfg.Checks.DisabledRules, (&secrets.Check{}).Rules()),
			Root:          root,
		})
	case "dangerous":
		return dangerous.New(dangerous.Options{
			DisabledRules: cfg.Checks.DisabledRules,
			MaxFileBytes:  int(cfg.Checks.MaxFileSize),
		}), nil
	case "deps":
		return deps.New(deps.Options{Online: cfg.Deps.Online, Allow: cfg.Deps.Allow}), nil
	case "linters":
		return linters.New(linters.Options{Enabled: cfg.Linters.Enabled, Timeout: cfg.Linters.Timeout.D()})
	case "vulns":
		return vulns.New(vulns.Options{DBDir: cfg.Vulns.DB}), nil
	}
	return nil, fmt.Errorf("checks.enabled: unknown check %q (known: %v)", name, CheckNames)
}

func ownRules(ids []string, rules []checks.Rule) []string {
	own := map[string]bool{}
	for _, r := range rules {
		own[r.ID] = true
	}
	var out []string
	for _, id := range ids {
		if own[id] {
			out = append(out, id)
		}
	}
	return out
}

// Rules collects the rules of the engine's checks that list theirs, sorted
// by id, for SARIF and docs.
func Rules(e *checks.Engine) []checks.Rule {
	byID := map[string]checks.Rule{}
	for _, c := range e.Checks() {
		if rl, ok := c.(checks.RuleLister); ok {
			for _, r := range rl.Rules() {
				if _, dup := byID[r.ID]; !dup {
					byID[r.ID] = r
				}
			}
		}
	}
	out := make([]checks.Rule, 0, len(byID))
	for _, r := range byID {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
