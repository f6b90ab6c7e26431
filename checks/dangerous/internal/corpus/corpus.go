// Package corpus reads the expectations planted in the dangerous check's
// testdata and scores findings against them, the same way for aisbx and for
// the reference tools (gosec, bandit) it is measured against.
//
// An expectation is a comment on the line where a finding must start:
//
//	value = eval(expr)  # want: py-eval
//	h := md5.Sum(b)     // want: go-weak-hash
//
// Lines without one must yield nothing. It imports nothing of aisbx. Read
// Wants and Compare first.
package corpus

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Want is one expected finding: a rule on a 1-based line.
type Want struct {
	Line int
	Rule string
}

func (w Want) String() string { return fmt.Sprintf("%d:%s", w.Line, w.Rule) }

var wantRE = regexp.MustCompile(`(?:#|//|/\*)\s*want:\s*([a-z0-9-]+(?:[ ,]+[a-z0-9-]+)*)`)

// Wants returns the expectations planted in a file.
func Wants(content []byte) []Want {
	var out []Want
	for i, line := range bytes.Split(content, []byte("\n")) {
		m := wantRE.FindSubmatch(line)
		if m == nil {
			continue
		}
		for _, r := range strings.FieldsFunc(string(m[1]), func(r rune) bool { return r == ' ' || r == ',' }) {
			out = append(out, Want{Line: i + 1, Rule: r})
		}
	}
	return out
}

// Got is one reported finding: its line and the rule ids it stands for
// (one for aisbx; a reference tool's rule maps to the aisbx rules that
// cover the same problem).
type Got struct {
	Line  int
	Rules []string
	Label string // the reporter's own rule id, for messages
}

func (g Got) String() string { return fmt.Sprintf("%d:%s", g.Line, g.Label) }

// Score is the outcome of comparing findings with expectations.
type Score struct {
	Found  int    // expectations matched by a finding
	Missed []Want // expectations no finding matched
	Extra  []Got  // findings no expectation matched: false alarms
}

// Compare matches findings to expectations on the same line and rule, each
// expectation at most once. Findings that repeat one already matched (same
// line and same mapped rules) are neither credit nor false alarm: tools
// differ in how many diagnostics they give one problem.
func Compare(wants []Want, got []Got) Score { return CompareNear(wants, got, 0) }

// CompareNear is Compare where a finding left unmatched on its own line may
// still match an expectation of its rule up to slack lines away. Reference
// tools report some problems elsewhere than aisbx does: a multi-line call
// at its keyword argument, SQL at the line that builds the string.
func CompareNear(wants []Want, got []Got, slack int) Score {
	used := make([]bool, len(wants))
	matched := make([]bool, len(got))
	for dist := 0; dist <= slack; dist++ {
		for gi, g := range got {
			if matched[gi] {
				continue
			}
			for i, w := range wants {
				if !used[i] && abs(w.Line-g.Line) == dist && contains(g.Rules, w.Rule) {
					used[i], matched[gi] = true, true
					break
				}
			}
		}
	}
	var s Score
	credited := map[string]bool{}
	for gi, g := range got {
		if matched[gi] {
			s.Found++
			credited[fmt.Sprint(g.Line, g.Rules)] = true
		}
	}
	for gi, g := range got {
		if !matched[gi] && !credited[fmt.Sprint(g.Line, g.Rules)] {
			s.Extra = append(s.Extra, g)
		}
	}
	for i, w := range wants {
		if !used[i] {
			s.Missed = append(s.Missed, w)
		}
	}
	sort.Slice(s.Extra, func(i, j int) bool { return s.Extra[i].Line < s.Extra[j].Line })
	return s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
