package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The testdata holds real reports: gosec v2.30.0 and bandit 1.6.2 (Debian
// 12) run over the dangerous check's corpus on this machine.

func TestParseGosec(t *testing.T) {
	b, err := os.ReadFile("testdata/gosec-corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	fs, err := parseGosec(b)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct{ Issues []json.RawMessage }
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if len(fs) != len(raw.Issues) || len(fs) == 0 {
		t.Fatalf("parsed %d findings from %d issues", len(fs), len(raw.Issues))
	}
	for _, f := range fs {
		if f.Line <= 0 || !strings.HasPrefix(f.Rule, "G") || !strings.HasSuffix(f.File, ".go") {
			t.Errorf("bad finding %+v", f)
		}
	}
	if _, err := parseGosec([]byte(`{"Issues":[{"rule_id":"G401","file":"a.go","line":"x"}]}`)); err == nil {
		t.Error("a bad line number parsed")
	}
	if fs, err := parseGosec([]byte(`{"Issues":[{"rule_id":"G201","file":"a.go","line":"12-14"}]}`)); err != nil || fs[0].Line != 12 {
		t.Errorf("line range: %+v %v", fs, err)
	}
}

func TestParseBandit(t *testing.T) {
	b, err := os.ReadFile("testdata/bandit-corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	fs, err := parseBandit(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) == 0 {
		t.Fatal("no findings parsed")
	}
	for _, f := range fs {
		if f.Line <= 0 || !strings.HasPrefix(f.Rule, "B") || !strings.HasSuffix(f.File, ".py") {
			t.Errorf("bad finding %+v", f)
		}
	}
	if _, err := parseBandit([]byte(`{"results":[],"errors":[{"filename":"x.py","reason":"syntax error"}]}`)); err == nil {
		t.Error("a scan error was not reported")
	}
}

// TestScoreRealReports scores the recorded reports against the corpus they
// were made from: every mapped finding lands on an expected line or counts
// as a false alarm, never both, and import blocklists stay apart.
func TestScoreRealReports(t *testing.T) {
	for _, tc := range []struct {
		report, dir, ext string
		parse            func([]byte) ([]toolFinding, error)
		mapping          map[string][]string
		root             string
	}{
		{"testdata/gosec-corpus.json", "../../testdata/go", ".go", parseGosec, gosecRules, "/tmp/gocorpus"},
		{"testdata/bandit-corpus.json", "../../testdata/python", ".py", parseBandit, banditRules, ""},
	} {
		b, _ := os.ReadFile(tc.report)
		fs, err := tc.parse(b)
		if err != nil {
			t.Fatal(err)
		}
		files, err := readTree(tc.dir, tc.ext, map[string]bool{"broken.py": true, "broken.go": true})
		if err != nil {
			t.Fatal(err)
		}
		root := tc.root
		if root == "" {
			root, _ = filepath.Abs(tc.dir)
		}
		s := scoreFindings(files, fs, relTo(root), tc.mapping, toolSlack)
		blocked := 0
		for _, f := range fs {
			if importBlocklist(f.Rule) {
				blocked++
			}
		}
		if s.expected == 0 || s.found == 0 || s.found > s.expected || s.outOfScope < blocked {
			t.Errorf("%s: implausible score %+v (blocklist findings %d)", tc.report, s, blocked)
		}
		if s.found+len(s.missed) != s.expected || s.falseAlarms != len(s.alarms) {
			t.Errorf("%s: score does not add up: %+v", tc.report, s)
		}
		t.Logf("%s: expected %d, found %d, false alarms %d, other %d", tc.report, s.expected, s.found, s.falseAlarms, s.outOfScope)
	}
}
