package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aisbx/aisbx/checks/dangerous/internal/corpus"
)

// A reference tool's finding, before scoring.
type toolFinding struct {
	File string // as the tool printed it
	Line int
	Rule string // the tool's own id: G401, B307
}

// gosecRules maps gosec v2.30 rule ids to the aisbx rules that cover the
// same problem. Rules missing here are out of aisbx's scope (unhandled
// errors, file inclusion, ...) and are counted apart, as are the import
// blocklists (G501-G507), which flag an import line rather than a use.
var gosecRules = map[string][]string{
	"G204": {"go-exec-shell"},
	"G402": {"go-insecure-skip-verify"},
	"G404": {"go-math-rand-secret"},
	"G201": {"go-sql-injection"}, "G202": {"go-sql-injection"},
	"G301": {"go-world-writable"}, "G302": {"go-world-writable"}, "G306": {"go-world-writable"},
	"G401": {"go-weak-hash"}, "G406": {"go-weak-hash"},
	"G405": {"go-weak-cipher"},
	"G106": {"go-ssh-insecure-host-key"},
}

// banditRules maps bandit 1.6 test ids the same way. B401-B413 (import
// blocklists) are counted apart; B603 and B607 (any subprocess call, a
// partial path) concern subprocess use in general, not the shell.
var banditRules = map[string][]string{
	"B307": {"py-eval"}, "B102": {"py-exec"},
	"B602": {"py-subprocess-shell"}, "B604": {"py-subprocess-shell"},
	"B605": {"py-os-system", "py-os-popen", "py-subprocess-shell"},
	"B301": {"py-pickle-load", "py-shelve-open"}, "B302": {"py-marshal-load"},
	"B506": {"py-yaml-load"}, "B614": {"py-torch-load"},
	"B501": {"py-requests-verify-false"}, "B323": {"py-ssl-unverified"},
	"B608": {"py-sql-injection"},
	"B303": {"py-weak-password-hash"}, "B324": {"py-weak-password-hash"},
	"B306": {"py-tempfile-mktemp"}, "B202": {"py-tarfile-extractall"},
	"B201": {"py-flask-debug"}, "B103": {"py-world-writable"}, "B311": {"py-insecure-random"},
}

// importBlocklist reports whether a tool rule flags an import line.
func importBlocklist(rule string) bool {
	if strings.HasPrefix(rule, "G50") {
		return true
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(rule, "B")); err == nil && strings.HasPrefix(rule, "B4") {
		return n >= 401 && n <= 413
	}
	return false
}

// parseGosec reads `gosec -fmt=json` output.
func parseGosec(b []byte) ([]toolFinding, error) {
	var out struct {
		Issues []struct {
			RuleID string `json:"rule_id"`
			File   string `json:"file"`
			Line   string `json:"line"` // "12" or "12-14"
		} `json:"Issues"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("parse gosec json: %w", err)
	}
	fs := make([]toolFinding, 0, len(out.Issues))
	for _, is := range out.Issues {
		first, _, _ := strings.Cut(is.Line, "-")
		line, err := strconv.Atoi(first)
		if err != nil {
			return nil, fmt.Errorf("gosec issue %s in %s: bad line %q", is.RuleID, is.File, is.Line)
		}
		fs = append(fs, toolFinding{File: is.File, Line: line, Rule: is.RuleID})
	}
	return fs, nil
}

// parseBandit reads `bandit -f json` output.
func parseBandit(b []byte) ([]toolFinding, error) {
	var out struct {
		Results []struct {
			Filename string `json:"filename"`
			Line     int    `json:"line_number"`
			TestID   string `json:"test_id"`
		} `json:"results"`
		Errors []struct {
			Filename string `json:"filename"`
			Reason   string `json:"reason"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("parse bandit json: %w", err)
	}
	if len(out.Errors) > 0 {
		return nil, fmt.Errorf("bandit could not scan %s: %s", out.Errors[0].Filename, out.Errors[0].Reason)
	}
	fs := make([]toolFinding, 0, len(out.Results))
	for _, r := range out.Results {
		fs = append(fs, toolFinding{File: r.Filename, Line: r.Line, Rule: r.TestID})
	}
	return fs, nil
}

// score is one tool's result on the planted corpus.
type score struct {
	expected, found, falseAlarms, outOfScope int
	missed                                   []string // file:line:rule
	alarms                                   []string // file:line:tool-rule
}

// scoreFindings scores a tool's findings against the corpus files'
// expectations. files maps a path relative to the corpus root to its
// content; rel turns a tool's file name into such a path.
func scoreFindings(files map[string][]byte, fs []toolFinding, rel func(string) string, mapping map[string][]string, slack int) score {
	byFile := map[string][]corpus.Got{}
	var s score
	for _, f := range fs {
		rules, ok := mapping[f.Rule]
		if !ok || importBlocklist(f.Rule) {
			s.outOfScope++
			continue
		}
		p := rel(f.File)
		byFile[p] = append(byFile[p], corpus.Got{Line: f.Line, Rules: rules, Label: f.Rule})
	}
	for p, content := range files {
		wants := corpus.Wants(content)
		cs := corpus.CompareNear(wants, byFile[p], slack)
		s.expected += len(wants)
		s.found += cs.Found
		s.falseAlarms += len(cs.Extra)
		for _, w := range cs.Missed {
			s.missed = append(s.missed, fmt.Sprintf("%s:%d:%s", p, w.Line, w.Rule))
		}
		for _, g := range cs.Extra {
			s.alarms = append(s.alarms, fmt.Sprintf("%s:%d:%s", p, g.Line, g.Label))
		}
	}
	return s
}

// relTo returns a function that makes tool paths relative to root.
func relTo(root string) func(string) string {
	return func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		r, err := filepath.Rel(root, p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
}
