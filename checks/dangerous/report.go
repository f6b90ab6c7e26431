package dangerous

import (
	"github.com/aisbx/aisbx/checks"
)

// report collects the findings of one file.
type report struct {
	disabled map[string]bool
	out      []checks.Finding
}

// enabled reports whether rule id may report; analyzers use it to skip work.
func (r *report) enabled(id string) bool { return !r.disabled[id] }

// add records a finding of rule id over [start, end). what says what was
// found at this site; the rule's advice (the safe alternative) follows it.
// The returned pointer lets the caller lower the severity for a site; it is
// nil when the rule is disabled, and valid only until the next add.
func (r *report) add(id string, start, end int, what string, fixes ...checks.Fix) *checks.Finding {
	ru, ok := rulesByID[id]
	if !ok || r.disabled[id] {
		return nil
	}
	if what == "" {
		what = ru.title
	}
	r.out = append(r.out, checks.Finding{
		Rule:     id,
		Category: checks.CategoryDangerous,
		Severity: ru.severity,
		Message:  what + ". " + ru.advice,
		Start:    start,
		End:      end,
		DocURL:   checks.RuleDocURL(id),
		Fixes:    fixes,
	})
	return &r.out[len(r.out)-1]
}

// replaceFix is a fix made of one edit.
func replaceFix(title string, start, end int, text string, preferred bool) checks.Fix {
	return checks.Fix{Title: title, Edits: []checks.Edit{{Start: start, End: end, NewText: text}}, Preferred: preferred}
}
