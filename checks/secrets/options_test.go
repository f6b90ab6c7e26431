package secrets

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/checks"
)

// scanSet runs a check over a generated set and returns its findings as
// expectations.
func scanSet(t *testing.T, c *Check, set string) []expectation {
	t.Helper()
	root, files := setFiles(t, set)
	return findingsAsExpectations(t, root, files, func(f *checks.File) []checks.Finding {
		fs, err := c.Run(context.Background(), f)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		return fs
	})
}

func countRule(es []expectation, pred func(expectation) bool) int {
	n := 0
	for _, e := range es {
		if pred(e) {
			n++
		}
	}
	return n
}

// TestAllowlistOptions: each option removes exactly the findings it names
// from the corpus and nothing else.
func TestAllowlistOptions(t *testing.T) {
	base := scanSet(t, mustCheck(t, DefaultOptions()), "corpus")
	// A fingerprint to allow: the first stripe key.
	var stripeFP string
	{
		root, files := setFiles(t, "corpus")
		data := files[".env"]
		fs, err := mustCheck(t, DefaultOptions()).Run(context.Background(), checks.NewFile(root, filepath.Join(root, ".env"), data))
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range fs {
			if fd.Rule == ruleStripeSecretKey {
				stripeFP = fd.Fingerprint
			}
		}
	}
	tests := []struct {
		name    string
		opts    func(o *Options)
		dropped func(e expectation) bool
	}{
		{"regex on the secret", func(o *Options) { o.Allowlist.Regexes = []string{`^gh[po]_`} },
			func(e expectation) bool { return e.rule == ruleGitHubPAT || e.rule == ruleGitHubOAuth }},
		{"path glob by extension", func(o *Options) { o.Allowlist.Paths = []string{"*.go"} },
			func(e expectation) bool { return strings.HasSuffix(e.path, ".go") }},
		{"anchored path", func(o *Options) { o.Allowlist.Paths = []string{"/config.json"} },
			func(e expectation) bool { return e.path == "config.json" }},
		{"directory glob", func(o *Options) { o.Allowlist.Paths = []string{"**/*.y*ml"} },
			func(e expectation) bool {
				return strings.HasSuffix(e.path, ".yml") || strings.HasSuffix(e.path, ".yaml")
			}},
		{"stopword, case-insensitive", func(o *Options) { o.Allowlist.Stopwords = []string{"HOOKS.SLACK.COM"} },
			func(e expectation) bool { return e.rule == ruleSlackWebhook }},
		{"fingerprint", func(o *Options) { o.Allowlist.Fingerprints = []string{stripeFP} },
			func(e expectation) bool { return e.path == ".env" && e.rule == ruleStripeSecretKey }},
		{"disabled rules", func(o *Options) { o.DisabledRules = []string{ruleGenericSecret, ruleURLPassword} },
			func(e expectation) bool { return e.rule == ruleGenericSecret || e.rule == ruleURLPassword }},
		{"high entropy threshold", func(o *Options) { o.EntropyThreshold = 7.5 },
			func(e expectation) bool { return e.rule == ruleGenericSecret }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			tc.opts(&o)
			got := scanSet(t, mustCheck(t, o), "corpus")
			var want []expectation
			for _, e := range base {
				if !tc.dropped(e) {
					want = append(want, e)
				}
			}
			if len(want) == len(base) {
				t.Fatal("the option should drop something from the corpus")
			}
			missed, extra := diffExpectations(want, got)
			if len(missed)+len(extra) > 0 {
				t.Errorf("dropped too much %v, kept too much %v", missed, extra)
			}
		})
	}
}

// TestGitleaksConfigIgnoredWhenOff: with UseGitleaksConfig false the
// workspace's allowlists do not apply.
func TestGitleaksConfigIgnoredWhenOff(t *testing.T) {
	on := scanSet(t, mustCheck(t, DefaultOptions()), "gitleaks-workspace")
	o := DefaultOptions()
	o.UseGitleaksConfig = false
	off := scanSet(t, mustCheck(t, o), "gitleaks-workspace")
	if countRule(off, func(e expectation) bool { return strings.HasPrefix(e.path, "fixtures/") }) == 0 || len(off) <= len(on) {
		t.Fatalf("without the config: %v; with it: %v", off, on)
	}
}

func TestOptionErrors(t *testing.T) {
	badRoot := func(d string) string { return filepath.Join("testdata", "bad-gitleaks", d) }
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"bad regex", Options{Allowlist: Allowlist{Regexes: []string{"ok", "(unclosed"}}}, `allowlist regex 2 "(unclosed"`},
		{"bad glob", Options{Allowlist: Allowlist{Paths: []string{"[z-a"}}}, `allowlist path 1 "[z-a"`},
		{"negated glob", Options{Allowlist: Allowlist{Paths: []string{"!keep"}}}, "negated"},
		{"empty stopword", Options{Allowlist: Allowlist{Stopwords: []string{" "}}}, "stopword 1 is empty"},
		{"bad fingerprint", Options{Allowlist: Allowlist{Fingerprints: []string{"md5:abc"}}}, `fingerprint 1 "md5:abc"`},
		{"unknown rule", Options{DisabledRules: []string{"aws-key"}}, `disabled rule "aws-key"`},
		{"threshold", Options{EntropyThreshold: -1}, "entropy threshold"},
		{"gitleaks regex", Options{UseGitleaksConfig: true, Root: badRoot("regex")}, `broken regex: regex 1 "(unclosed"`},
		{"gitleaks syntax", Options{UseGitleaksConfig: true, Root: badRoot("syntax")}, ".gitleaks.toml"},
		{"gitleaks condition", Options{UseGitleaksConfig: true, Root: badRoot("condition")}, `condition "XOR"`},
		{"gitleaks empty allowlist", Options{UseGitleaksConfig: true, Root: badRoot("empty")}, "needs at least one"},
	}
	for _, tc := range tests {
		_, err := New(tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

// TestBrokenGitleaksConfigStillReports: a typo in .gitleaks.toml is an
// error, but the findings still come back.
func TestBrokenGitleaksConfigStillReports(t *testing.T) {
	c := mustCheck(t, DefaultOptions())
	root, files := setFiles(t, "bad-gitleaks")
	for rel, data := range files {
		if !strings.HasSuffix(rel, "app.py") {
			continue
		}
		dir := filepath.Join(root, filepath.Dir(rel))
		fs, err := c.Run(context.Background(), checks.NewFile(dir, filepath.Join(root, rel), data))
		if err == nil || !strings.Contains(err.Error(), ".gitleaks.toml") {
			t.Errorf("%s: err = %v", rel, err)
		}
		if len(fs) != 1 || fs[0].Rule != ruleGitHubPAT {
			t.Errorf("%s: findings %+v", rel, fs)
		}
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern string
		match   []string
		miss    []string
	}{
		{"testdata/", []string{"testdata/a.go", "x/testdata/b/c.py"}, []string{"testdata", "testdatax/a"}},
		{"/docs", []string{"docs/a.md", "docs"}, []string{"x/docs/a.md"}},
		{"*.pem", []string{"a.pem", "x/y/b.pem"}, []string{"a.pem.txt"}},
		{"docs/**/*.md", []string{"docs/a.md", "docs/x/y/b.md"}, []string{"a/docs/b.md", "docs/a.txt"}},
		{"**/fixtures/*.json", []string{"fixtures/a.json", "a/b/fixtures/c.json"}, []string{"fixtures/a/b.json"}},
	}
	for _, tc := range tests {
		g, err := compileGlob(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range tc.match {
			if !g.match(p) {
				t.Errorf("%q should match %q", tc.pattern, p)
			}
		}
		for _, p := range tc.miss {
			if g.match(p) {
				t.Errorf("%q should not match %q", tc.pattern, p)
			}
		}
	}
}
