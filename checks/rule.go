package checks

// Rule describes a rule for reports (SARIF rule metadata), docs and
// `aisbxd check --list-rules`.
type Rule struct {
	ID          string
	Category    Category
	Severity    Severity // the default
	Title       string   // a short description: "AWS access key id"
	Description string   // a full sentence or two: what is wrong, and the safe alternative
	DocURL      string
	// SecuritySeverity is GitHub code scanning's score (0.0–10.0): above 9
	// critical, 7–8.9 high, 4–6.9 medium, below 4 low. Zero for non-security
	// rules.
	SecuritySeverity float64
}

// RuleLister is implemented by checks that can list their rules.
type RuleLister interface {
	Rules() []Rule
}
