package secrets

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
)

// GitleaksConfigName is the file, in a workspace root, whose allowlists the
// check honours so that teams can switch from gitleaks without churn.
const GitleaksConfigName = ".gitleaks.toml"

// gitleaksFile is the part of a gitleaks config aisbx reads: the global
// allowlists. Rules are gitleaks' own and are ignored.
type gitleaksFile struct {
	Allowlist  *gitleaksAllowlist  `toml:"allowlist"`
	Allowlists []gitleaksAllowlist `toml:"allowlists"`
}

type gitleaksAllowlist struct {
	Description string   `toml:"description"`
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	Paths       []string `toml:"paths"`
	Stopwords   []string `toml:"stopwords"`
	Commits     []string `toml:"commits"`
	TargetRules []string `toml:"targetRules"`
}

// gitleaksRule compiles one gitleaks allowlist.
type gitleaksRule struct {
	and       bool
	target    string // "" (the secret), "match" or "line"
	regexes   []*regexp.Regexp
	paths     []*regexp.Regexp
	stopwords []string
	commits   bool            // commit entries: never true for a working tree
	rules     map[string]bool // aisbx rule ids it applies to; nil = all
}

// gitleaksRuleIDs maps gitleaks rule ids to aisbx's, for targetRules.
var gitleaksRuleIDs = map[string]string{
	"aws-access-token": ruleAWSAccessKeyID, "github-oauth": ruleGitHubOAuth,
	"gitlab-pat-routable": ruleGitLabPAT, "stripe-access-token": ruleStripeSecretKey,
	"gcp-api-key": ruleGoogleAPIKey, "anthropic-admin-api-key": ruleAnthropicKey,
	"npm-access-token": ruleNPMToken, "pypi-upload-token": rulePyPIToken, "sendgrid-api-token": ruleSendGridKey,
	"huggingface-access-token": ruleHuggingFace, "huggingface-organization-api-token": ruleHuggingFace,
	"jwt-base64": ruleJWT, "generic-api-key": ruleGenericSecret,
}

func mapGitleaksRule(id string) string {
	if r, ok := gitleaksRuleIDs[id]; ok {
		return r
	}
	if ruleByID(id) != nil {
		return id
	}
	for prefix, r := range map[string]string{"gitlab-": ruleGitLabToken, "slack-": ruleSlackToken, "shopify-": ruleShopifyToken, "digitalocean-": ruleDigitalOceanTokn} {
		if strings.HasPrefix(id, prefix) {
			return r
		}
	}
	return ""
}

// parseGitleaksConfig reads the allowlists of a gitleaks config.
func parseGitleaksConfig(data []byte) ([]gitleaksRule, error) {
	var f gitleaksFile
	if _, err := toml.Decode(string(data), &f); err != nil {
		return nil, err
	}
	var in []gitleaksAllowlist
	if f.Allowlist != nil {
		in = append(in, *f.Allowlist)
	}
	in = append(in, f.Allowlists...)
	out := make([]gitleaksRule, 0, len(in))
	for i, a := range in {
		r, err := compileGitleaksAllowlist(a)
		if err != nil {
			name := a.Description
			if name == "" {
				name = fmt.Sprintf("allowlist %d", i+1)
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func compileGitleaksAllowlist(a gitleaksAllowlist) (gitleaksRule, error) {
	r := gitleaksRule{target: strings.ToLower(a.RegexTarget), commits: len(a.Commits) > 0}
	switch strings.ToUpper(a.Condition) {
	case "", "OR":
	case "AND":
		r.and = true
	default:
		return r, fmt.Errorf("condition %q: want \"OR\" or \"AND\"", a.Condition)
	}
	switch r.target {
	case "", "secret", "match", "line":
	default:
		return r, fmt.Errorf("regexTarget %q: want \"secret\", \"match\" or \"line\"", a.RegexTarget)
	}
	for i, s := range a.Regexes {
		re, err := regexp.Compile(s)
		if err != nil {
			return r, fmt.Errorf("regex %d %q: %w", i+1, s, err)
		}
		r.regexes = append(r.regexes, re)
	}
	for i, s := range a.Paths {
		re, err := regexp.Compile(s)
		if err != nil {
			return r, fmt.Errorf("path %d %q: %w", i+1, s, err)
		}
		r.paths = append(r.paths, re)
	}
	for _, w := range a.Stopwords {
		if w != "" {
			r.stopwords = append(r.stopwords, strings.ToLower(w))
		}
	}
	if len(a.TargetRules) > 0 {
		r.rules = map[string]bool{}
		for _, id := range a.TargetRules {
			if mapped := mapGitleaksRule(id); mapped != "" {
				r.rules[mapped] = true
			}
		}
	}
	if len(r.regexes)+len(r.paths)+len(r.stopwords) == 0 && !r.commits {
		return r, errors.New("an allowlist needs at least one of regexes, paths, stopwords or commits")
	}
	return r, nil
}

// candidate is what an allowlist looks at for one finding.
type candidate struct {
	rule, path   string
	secret       string
	match, line  string
	pathOnlyTest bool // only the path is known yet (before scanning)
}

// allows applies one gitleaks allowlist to a candidate, as gitleaks does:
// with OR any criterion suffices, with AND every criterion given must hold.
func (r *gitleaksRule) allows(c candidate) bool {
	if r.rules != nil && (c.pathOnlyTest || !r.rules[c.rule]) {
		return false
	}
	pathHit := matchAny(r.paths, c.path)
	if c.pathOnlyTest {
		// Before scanning only a path-only allowlist can decide.
		return pathHit && (!r.and || len(r.regexes)+len(r.stopwords) == 0 && !r.commits)
	}
	target := c.secret
	switch r.target {
	case "match":
		target = c.match
	case "line":
		target = c.line
	}
	regexHit := matchAny(r.regexes, target)
	stopHit := containsStopword(c.secret, r.stopwords)
	if !r.and {
		return pathHit || regexHit || stopHit
	}
	if r.commits {
		return false // a working tree has no commit to match
	}
	return (len(r.paths) == 0 || pathHit) && (len(r.regexes) == 0 || regexHit) && (len(r.stopwords) == 0 || stopHit)
}

func matchAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// gitleaksCache holds each root's parsed .gitleaks.toml, re-read when the
// file's size or modification time changes.
type gitleaksCache struct {
	mu     sync.Mutex
	byRoot map[string]*gitleaksEntry
}

type gitleaksEntry struct {
	size  int64
	mtime time.Time
	rules []gitleaksRule
	err   error
}

func (c *gitleaksCache) get(root string) ([]gitleaksRule, error) {
	if root == "" {
		return nil, nil
	}
	p := filepath.Join(root, GitleaksConfigName)
	fi, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byRoot[root]; ok && e.size == fi.Size() && e.mtime.Equal(fi.ModTime()) {
		return e.rules, e.err
	}
	e := &gitleaksEntry{size: fi.Size(), mtime: fi.ModTime()}
	data, err := os.ReadFile(p)
	if err == nil {
		e.rules, err = parseGitleaksConfig(data)
	}
	if err != nil {
		e.err = fmt.Errorf("%s: %w", p, err)
	}
	if c.byRoot == nil {
		c.byRoot = map[string]*gitleaksEntry{}
	}
	c.byRoot[root] = e
	return e.rules, e.err
}
