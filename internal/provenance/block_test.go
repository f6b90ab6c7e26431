package provenance

import (
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/checks"
)

func TestDecide(t *testing.T) {
	content := []byte("import os\nKEY = \"AKIA...\"\neval(x)\nprint(1)\n")
	secret := checks.Finding{Rule: "aws-access-key-id", Category: checks.CategorySecret, Severity: checks.SeverityError, Message: "AWS access key ID", Start: 16, End: 24, DocURL: checks.RuleDocURL("aws-access-key-id")}
	danger := checks.Finding{Rule: "py-eval", Category: checks.CategoryDangerous, Severity: checks.SeverityError, Message: "eval of dynamic input", Start: 26, End: 33}
	lint := checks.Finding{Rule: "unused", Category: checks.CategoryLint, Severity: checks.SeverityWarning, Message: "unused import", Start: 0, End: 9}
	all := []checks.Finding{lint, secret, danger}
	tests := []struct {
		name    string
		policy  BlockPolicy
		ranges  []Range
		block   bool
		mention []string
		absent  []string
	}{
		{"never", BlockNever, nil, false, nil, nil},
		{"secret", BlockSecret, nil, true, []string{"line 2: AWS access key ID [aws-access-key-id, secret]", "environment"}, []string{"py-eval", "unused"}},
		{"error", BlockError, nil, true, []string{"line 2:", "line 3: eval of dynamic input [py-eval, dangerous]"}, []string{"unused"}},
		{"outside the edit", BlockError, []Range{{3, 4}}, false, nil, nil},
		{"only the edited line", BlockError, []Range{{2, 3}}, true, []string{"py-eval"}, []string{"aws-access-key-id", "environment"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(tt.policy, "/w/app.py", content, tt.ranges, all)
			if d.Block != tt.block {
				t.Fatalf("Block = %v, reason %q", d.Block, d.Reason)
			}
			for _, m := range tt.mention {
				if !strings.Contains(d.Reason, m) {
					t.Errorf("reason lacks %q:\n%s", m, d.Reason)
				}
			}
			for _, m := range tt.absent {
				if strings.Contains(d.Reason, m) {
					t.Errorf("reason mentions %q:\n%s", m, d.Reason)
				}
			}
			if strings.Contains(d.Reason, "AKIA") {
				t.Errorf("reason quotes the file's text: %s", d.Reason)
			}
		})
	}
	for _, s := range []string{"never", "Secret", " error "} {
		if _, err := ParseBlockPolicy(s); err != nil {
			t.Errorf("ParseBlockPolicy(%q): %v", s, err)
		}
	}
	if _, err := ParseBlockPolicy("warning"); err == nil {
		t.Error("ParseBlockPolicy(warning) succeeded")
	}
}

func TestHeuristics(t *testing.T) {
	content := []byte("a\nb\nc\n")
	tests := []struct {
		name string
		c    DiskChange
		ok   bool
		want []Range
	}{
		{"external write", DiskChange{File: "/w/a", Content: content}, true, []Range{{0, 3}}},
		{"known lines", DiskChange{File: "/w/a", Ranges: []Range{{1, 2}}}, true, []Range{{1, 2}}},
		{"the editor saved it", DiskChange{File: "/w/a", Content: content, SavedByClient: true}, false, nil},
		{"the person is editing it", DiskChange{File: "/w/a", Content: content, DirtyInClient: true}, false, nil},
		{"git is checking out", DiskChange{File: "/w/a", Content: content, GitBusy: true}, false, nil},
		{"only deletions", DiskChange{File: "/w/a", Ranges: []Range{}}, false, nil},
	}
	for _, tt := range tests {
		e, ok := ExternalWrite(tt.c)
		if ok != tt.ok || (ok && (e.Confidence != ConfidenceExternalWrite || e.Source != SourceExternalWrite || len(e.Ranges) != len(tt.want) || e.Ranges[0] != tt.want[0])) {
			t.Errorf("%s: ExternalWrite = %+v, %v", tt.name, e, ok)
		}
	}
	inserts := []struct {
		c   LineChange
		min int
		ok  bool
	}{
		{LineChange{10, 0, 25}, 0, true},
		{LineChange{10, 0, 19}, 0, false},
		{LineChange{10, 5, 30}, 20, true},
		{LineChange{0, 300, 301}, 20, false}, // a client resending the whole document
		{LineChange{10, 0, 5}, 5, true},
	}
	for _, tt := range inserts {
		e, ok := LargeInsert("/w/a", tt.c, tt.min, time.Time{})
		if ok != tt.ok || (ok && (e.Ranges[0] != Range{tt.c.Start, tt.c.Start + tt.c.Inserted} || e.Confidence != ConfidenceLargeInsert)) {
			t.Errorf("LargeInsert(%+v, %d) = %+v, %v", tt.c, tt.min, e, ok)
		}
	}
}
