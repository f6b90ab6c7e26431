package secrets

import (
	"fmt"
	"regexp"
	"strings"
)

// Options configure the secrets check. Start from DefaultOptions: the zero
// value works too, but does not read .gitleaks.toml.
type Options struct {
	// Allowlist is aisbx's own allowlist (aisbx.toml [secrets.allowlist]).
	Allowlist Allowlist
	// EntropyThreshold is the minimum Shannon entropy, in bits per character,
	// of a generic-secret value. Zero means DefaultEntropyThreshold.
	EntropyThreshold float64
	// UseGitleaksConfig honours the allowlists of a .gitleaks.toml in the
	// workspace root ([allowlist] and gitleaks v8.25+ [[allowlists]]).
	UseGitleaksConfig bool
	// DisabledRules are rule ids this check does not run at all.
	DisabledRules []string
	// Root, when set, is a workspace root whose .gitleaks.toml New reads and
	// validates up front, so that a broken file is an error at start-up
	// rather than on every file. Other roots are read on first use.
	Root string
}

// DefaultOptions are the options aisbx starts from.
func DefaultOptions() Options {
	return Options{EntropyThreshold: DefaultEntropyThreshold, UseGitleaksConfig: true}
}

// Allowlist says which findings are not secrets.
type Allowlist struct {
	// Regexes are matched against the secret value; a match drops it.
	Regexes []string
	// Paths are gitignore-style globs relative to the workspace root; files
	// they match are not scanned.
	Paths []string
	// Stopwords drop a secret that contains one of them (case-insensitive).
	Stopwords []string
	// Fingerprints drop the secrets with these "sha256:<hex>" fingerprints
	// (Finding.Fingerprint), so a known value can be accepted without
	// writing it down.
	Fingerprints []string
}

// allowlist is a compiled Allowlist.
type allowlist struct {
	regexes      []*regexp.Regexp
	paths        []glob
	stopwords    []string
	fingerprints map[string]bool
}

func compileAllowlist(a Allowlist) (*allowlist, error) {
	c := &allowlist{fingerprints: map[string]bool{}}
	for i, r := range a.Regexes {
		re, err := regexp.Compile(r)
		if err != nil {
			return nil, fmt.Errorf("allowlist regex %d %q: %w", i+1, r, err)
		}
		c.regexes = append(c.regexes, re)
	}
	for i, p := range a.Paths {
		g, err := compileGlob(p)
		if err != nil {
			return nil, fmt.Errorf("allowlist path %d %q: %w", i+1, p, err)
		}
		c.paths = append(c.paths, g)
	}
	for i, w := range a.Stopwords {
		if strings.TrimSpace(w) == "" {
			return nil, fmt.Errorf("allowlist stopword %d is empty: it would allow every secret", i+1)
		}
		c.stopwords = append(c.stopwords, strings.ToLower(w))
	}
	for i, f := range a.Fingerprints {
		if !validFingerprint(f) {
			return nil, fmt.Errorf("allowlist fingerprint %d %q: want \"sha256:\" and 64 lower-case hex digits", i+1, f)
		}
		c.fingerprints[f] = true
	}
	return c, nil
}

func validFingerprint(f string) bool {
	h, ok := strings.CutPrefix(f, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if !('0' <= h[i] && h[i] <= '9' || 'a' <= h[i] && h[i] <= 'f') {
			return false
		}
	}
	return true
}

func (a *allowlist) pathAllowed(rel string) bool {
	for _, g := range a.paths {
		if g.match(rel) {
			return true
		}
	}
	return false
}

// secretAllowed applies the value-based entries.
func (a *allowlist) secretAllowed(secret, fingerprint string) bool {
	if a.fingerprints[fingerprint] {
		return true
	}
	for _, re := range a.regexes {
		if re.MatchString(secret) {
			return true
		}
	}
	return containsStopword(secret, a.stopwords)
}

func containsStopword(secret string, words []string) bool {
	if len(words) == 0 {
		return false
	}
	ls := strings.ToLower(secret)
	for _, w := range words {
		if strings.Contains(ls, w) {
			return true
		}
	}
	return false
}

func validate(o Options) error {
	if o.EntropyThreshold < 0 || o.EntropyThreshold > 8 {
		return fmt.Errorf("entropy threshold %v: want bits per character between 0 and 8 (default %v)", o.EntropyThreshold, DefaultEntropyThreshold)
	}
	for _, id := range o.DisabledRules {
		if ruleByID(id) == nil {
			return fmt.Errorf("disabled rule %q: no such secrets rule (see Check.Rules)", id)
		}
	}
	return nil
}
