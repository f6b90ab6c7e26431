package secrets

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/aisbx/aisbx/checks"
)

// Check is the secrets check. It is safe for concurrent use.
type Check struct {
	sc          *scanner
	allow       *allowlist
	useGitleaks bool
	gitleaks    gitleaksCache
}

var (
	_ checks.Check      = (*Check)(nil)
	_ checks.RuleLister = (*Check)(nil)
)

// New validates opts and builds the check.
func New(opts Options) (*Check, error) {
	if err := validate(opts); err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	al, err := compileAllowlist(opts.Allowlist)
	if err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	threshold := opts.EntropyThreshold
	if threshold == 0 {
		threshold = DefaultEntropyThreshold
	}
	disabled := map[string]bool{}
	for _, id := range opts.DisabledRules {
		disabled[id] = true
	}
	c := &Check{sc: newScanner(threshold, disabled), allow: al, useGitleaks: opts.UseGitleaksConfig}
	if c.useGitleaks && opts.Root != "" {
		if _, err := c.gitleaks.get(opts.Root); err != nil {
			return nil, fmt.Errorf("secrets: %w", err)
		}
	}
	return c, nil
}

// Name implements checks.Check.
func (c *Check) Name() string { return "secrets" }

// Applies implements checks.Check: every text file. A NUL byte in the first
// 8000 bytes means binary, as git decides it.
func (c *Check) Applies(f *checks.File) bool {
	head := f.Content[:min(len(f.Content), 8000)]
	return len(f.Content) > 0 && bytes.IndexByte(head, 0) < 0
}

// Run implements checks.Check. A broken .gitleaks.toml is reported as an
// error alongside the findings, which are still returned (without its
// allowlists), so a typo in a config file never hides a leak.
func (c *Check) Run(ctx context.Context, f *checks.File) ([]checks.Finding, error) {
	rel := f.Rel()
	if c.allow.pathAllowed(rel) {
		return nil, nil
	}
	var gl []gitleaksRule
	var glErr error
	if c.useGitleaks {
		gl, glErr = c.gitleaks.get(f.Root)
		for i := range gl {
			if gl[i].allows(candidate{path: rel, pathOnlyTest: true}) {
				return nil, glErr
			}
		}
	}
	fk := newFileKind(f.Path, f.Language)
	ms, err := c.sc.scan(ctx, f.Content, fk)
	if err != nil {
		return nil, err
	}
	var out []checks.Finding
	fixer := newFixer(f, fk)
	for _, m := range ms {
		secret := string(f.Content[m.start:m.end])
		fp := Fingerprint(secret)
		if c.allow.secretAllowed(secret, fp) || gitleaksAllows(gl, f.Content, rel, m, secret) {
			continue
		}
		out = append(out, c.finding(fixer, m, secret, fp))
	}
	return out, glErr
}

func gitleaksAllows(gl []gitleaksRule, b []byte, rel string, m match, secret string) bool {
	if len(gl) == 0 {
		return false
	}
	cand := candidate{
		rule: m.rule.id, path: rel, secret: secret,
		match: string(b[m.litStart:m.litEnd]), line: string(lineAround(b, m.start)),
	}
	for i := range gl {
		if gl[i].allows(cand) {
			return true
		}
	}
	return false
}

// Fingerprint identifies a secret without revealing it: "sha256:" and the
// hex SHA-256 of the value. Allowlists and baselines store it.
func Fingerprint(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func (c *Check) finding(fx *fixer, m match, secret, fp string) checks.Finding {
	sev := m.rule.severity
	if m.weak {
		sev = checks.SeverityWarning
	}
	env := envName(m)
	what := m.rule.title
	switch m.rule.id {
	case ruleGenericSecret:
		what = "secret"
		if m.name != "" {
			what += " assigned to " + m.name
		}
	case ruleURLPassword:
		what = "password in a URL"
	case rulePrivateKey:
		what = "private key"
	}
	msg := fmt.Sprintf("Hard-coded %s %s", what, Redact(secret))
	if m.note != "" {
		msg += " (" + m.note + ")"
	}
	msg += ": " + fmt.Sprintf(m.rule.advice, env) + "."
	fd := checks.Finding{
		Rule: m.rule.id, Category: checks.CategorySecret, Severity: sev, Message: msg,
		Start: m.start, End: m.end, DocURL: checks.RuleDocURL(m.rule.id), Fingerprint: fp,
	}
	if fix, ok := fx.fix(m, env); ok {
		fd.Fixes = []checks.Fix{fix}
	}
	return fd
}

// DependsOn reports whether a changed file changes the check's findings:
// a workspace's .gitleaks.toml holds allowlists. The check re-reads it by
// itself (by modification time); the engine only needs to drop its cache.
func (c *Check) DependsOn(path string, existenceChanged bool) bool {
	return filepath.Base(path) == GitleaksConfigName
}
