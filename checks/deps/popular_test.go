package deps

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/checks"
)

// TestLookalike: one edit (or one visual confusion) from a popular name, and
// not popular itself, is suspect; popular near-neighbours and names owned by
// the same scope or account are not.
func TestLookalike(t *testing.T) {
	tests := []struct {
		eco  ecosystem
		name string
		want string // "" = not suspect
	}{
		{ecoPyPI, "reqeusts", "requests"},  // transposition
		{ecoPyPI, "requets", "requests"},   // deletion
		{ecoPyPI, "colourama", "colorama"}, // insertion
		{ecoPyPI, "python-dateutl", "python-dateutil"},
		{ecoPyPI, "pythondateutil", "python-dateutil"}, // separator dropped
		{ecoPyPI, "urllib4", "urllib3"},                // digit swap
		{ecoPyPI, "Python_Dateutil", ""},               // the same project under PEP 503
		{ecoPyPI, "grequests", ""},                     // popular itself
		{ecoPyPI, "requests", ""},
		{ecoPyPI, "six", ""}, // too short to judge
		{ecoPyPI, "my-internal-tool", ""},
		{ecoNPM, "lodahs", "lodash"},
		{ecoNPM, "expresss", "express"},
		{ecoNPM, "1odash", "lodash"},           // digit for letter
		{ecoNPM, "crossenv", "cross-env"},      // punctuation
		{ecoNPM, "babelcore", "@babel/core"},   // scope dropped
		{ecoNPM, "@bable/core", "@babel/core"}, // scope misspelt
		{ecoNPM, "preact", ""},                 // popular itself
		{ecoNPM, "react", ""},
		{ecoNPM, "jets", "jest"},     // 223k downloads a month against jest's 165M: flagged
		{ecoNPM, "@babel/cores", ""}, // same scope: babel owns both
		{ecoNPM, "left-pad-plus-ultra", ""},
		{ecoGo, "github.com/gorila/mux", "github.com/gorilla/mux"},
		{ecoGo, "github.com/sirupsen/logruss", ""}, // same account
		{ecoGo, "github.com/sirupsenn/logrus", "github.com/sirupsen/logrus"},
		{ecoGo, "github.com/gorilla/mux/v2", ""},    // a major version of the same module
		{ecoGo, "github.com/gorilla/muxx", ""},      // same account
		{ecoGo, "github.com/stretchr/testifyy", ""}, // same account
		{ecoGo, "github.com/strechr/testify", "github.com/stretchr/testify"},
		{ecoGo, "github.com/acme/internal", ""},
	}
	c := New(Options{})
	for _, tt := range tests {
		if got := c.popularLookalike(tt.eco, tt.name); got != tt.want {
			t.Errorf("%s %q: look-alike of %q, want %q", tt.eco, tt.name, got, tt.want)
		}
	}
	off := New(Options{TyposquatDistance: -1})
	if got := off.popularLookalike(ecoPyPI, "reqeusts"); got != "" {
		t.Errorf("TyposquatDistance -1 still judges: %q", got)
	}
	two := New(Options{TyposquatDistance: 2})
	if got := two.popularLookalike(ecoPyPI, "reqeustz"); got != "requests" {
		t.Errorf("distance 2: %q", got)
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		max  int
		want int
	}{
		{"requests", "reqeusts", 1, 1},
		{"requests", "requests", 1, 0},
		{"lodash", "lodahs", 1, 1},
		{"express", "expresss", 1, 1},
		{"abc", "xyz", 1, 2}, // capped at max+1
		{"kitten", "sitting", 3, 3},
		{"", "abc", 5, 3},
		{strings.Repeat("a", 70), strings.Repeat("a", 69) + "b", 1, 1}, // beyond the stack buffer
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b, tt.max); got != tt.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.max, got, tt.want)
		}
	}
}

// TestDataFiles checks the shipped lists against what they claim to be.
func TestDataFiles(t *testing.T) {
	for _, tt := range []struct {
		file string
		min  int
		must []string
	}{
		{"go-std.txt", 300, []string{"fmt", "net/http", "encoding/json/v2", "syscall/js", "crypto/mlkem"}},
		{"python-stdlib.txt", 250, []string{"os", "json", "tomllib", "asyncio", "__future__"}},
		{"node-builtins.txt", 50, []string{"fs", "fs/promises", "child_process", "worker_threads"}},
		{"popular-pypi.txt", 10000, []string{"requests", "numpy", "grequests"}},
		{"popular-npm.txt", 10000, []string{"react", "preact", "@babel/core", "lodash"}},
		{"popular-go.txt", 500, []string{"github.com/gorilla/mux", "golang.org/x/sync"}},
	} {
		set := dataSet(tt.file)
		if len(set) < tt.min {
			t.Errorf("%s: %d entries, want at least %d", tt.file, len(set), tt.min)
		}
		for _, m := range tt.must {
			if !set[m] {
				t.Errorf("%s lacks %q", tt.file, m)
			}
		}
	}
	for imp, dists := range pythonImportMap() {
		if imp == "" || len(dists) == 0 || strings.ContainsAny(imp, " \t") {
			t.Errorf("bad import-name line %q -> %v", imp, dists)
		}
	}
	if got := pythonImportMap()["yaml"]; len(got) == 0 || got[0] != "pyyaml" {
		t.Errorf("yaml -> %v", got)
	}
}

// TestRulesDocumented: every rule has its page in docs/rules.
func TestRulesDocumented(t *testing.T) {
	for _, r := range New(Options{}).Rules() {
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", "rules", r.ID+".md"))
		if err != nil {
			t.Errorf("rule %s: %v", r.ID, err)
			continue
		}
		if !strings.HasPrefix(string(b), "# "+r.ID+":") || r.DocURL != checks.RuleDocURL(r.ID) || r.Title == "" || r.Description == "" {
			t.Errorf("rule %s: page or metadata incomplete", r.ID)
		}
	}
}

// TestDistanceUpTo1 compares the fast path with the table on many pairs.
func TestDistanceUpTo1(t *testing.T) {
	words := []string{"", "a", "ab", "ba", "abc", "acb", "bac", "abcd", "abdc", "abd", "xbcd", "abcde", "requests", "reqeusts", "requets", "requestss", "rqeuests", "erquests", "requesst", "lodash", "lodahs", "1odash", "express", "expresss", "aab", "aba", "baa"}
	for _, a := range words {
		for _, b := range words {
			// The table, with max 2 so the fast path is not taken.
			full := editDistance(a, b, 2)
			if full > 2 {
				full = 2
			}
			if got := distanceUpTo1(a, b); got != full {
				t.Errorf("distanceUpTo1(%q, %q) = %d, table says %d", a, b, got, full)
			}
		}
	}
}

// TestGoStdMatchesToolchain: the built-in standard library list is what
// goRootPackages reads from this machine's toolchain when the versions
// match (it was generated that way); with another toolchain the two may
// differ by the packages added or removed since, which is why the check
// reads the host's list at run time.
func TestGoStdMatchesToolchain(t *testing.T) {
	requireTool(t, "go")
	out, err := exec.Command("go", "env", "GOROOT", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(out))
	pkgs, err := goRootPackages(lines[0])
	if err != nil {
		t.Fatal(err)
	}
	host := map[string]bool{}
	for _, p := range pkgs {
		host[p] = true
	}
	builtin := dataSet("go-std.txt")
	header, _ := dataFS.ReadFile("data/go-std.txt")
	sameVersion := strings.Contains(strings.SplitN(string(header), "\n", 2)[0], lines[1]+",")
	for p := range builtin {
		if !host[p] && sameVersion {
			t.Errorf("built-in list has %q, %s does not", p, lines[1])
		}
	}
	for p := range host {
		if !builtin[p] && sameVersion {
			t.Errorf("%s has %q, the built-in list does not", lines[1], p)
		}
	}
	if !sameVersion {
		t.Logf("toolchain %s differs from the built-in list's; %d host packages, %d built in", lines[1], len(host), len(builtin))
	}
}

// TestVersionSibling: names that only add a version or a letter at the end,
// or change a digit, are siblings; misspellings are not.
func TestVersionSibling(t *testing.T) {
	tests := []struct {
		name, target string
		want         bool
	}{
		{"PySide", "pyside6", true},
		{"PyQt4", "pyqt6", true},
		{"pydy", "pydyf", true},
		{"boto", "boto3", true},
		{"expresss", "express", false}, // a doubled last letter
		{"reqeusts", "requests", false},
		{"nunpy", "numpy", false},
		{"lodahs", "lodash", false},
		{"flint", "flit", false},
	}
	for _, tt := range tests {
		if got := versionSibling(tt.name, tt.target); got != tt.want {
			t.Errorf("versionSibling(%q, %q) = %v, want %v", tt.name, tt.target, got, tt.want)
		}
	}
}
