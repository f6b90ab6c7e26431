package checks

import (
	"fmt"
	"strings"
)

// Category groups findings by the question they answer.
type Category string

const (
	CategorySecret     Category = "secret"
	CategoryDangerous  Category = "dangerous"
	CategoryDependency Category = "dependency"
	CategoryLint       Category = "lint"
	CategoryConfig     Category = "config"
	CategoryTest       Category = "test"
)

// Severity orders findings; the numbering matches LSP's DiagnosticSeverity.
type Severity int

const (
	SeverityError   Severity = 1
	SeverityWarning Severity = 2
	SeverityInfo    Severity = 3
	SeverityHint    Severity = 4
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity reads "error", "warning", "info" or "hint".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "error":
		return SeverityError, nil
	case "warning", "warn":
		return SeverityWarning, nil
	case "info", "information":
		return SeverityInfo, nil
	case "hint":
		return SeverityHint, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning, info or hint)", s)
}

// AtLeast reports whether s is as severe as min or more (error is the most).
func (s Severity) AtLeast(min Severity) bool { return s != 0 && s <= min }

// Finding is one thing a check found in a file.
//
// Start and End are byte offsets into File.Content. A Finding must never
// carry a found secret in full: Message and Fixes are shown to users and
// written to logs and reports.
type Finding struct {
	Rule     string   // stable rule id, e.g. "aws-access-key-id" or "py-eval"
	Category Category // secret, dangerous, dependency, lint, config, test
	Severity Severity
	Message  string
	Start    int
	End      int
	DocURL   string // a page that explains the rule; "" when there is none
	Fixes    []Fix
	// Tool names the external tool that produced the finding ("ruff",
	// "go vet"); empty for aisbx's own checks.
	Tool string
	// Check is the Name of the check that produced the finding; the engine
	// fills it in.
	Check string
	// Fingerprint identifies what was found without revealing it (for a
	// secret, "sha256:" + hex of the value). Allowlists and baselines store
	// it instead of the value. Empty when the rule has no use for one.
	Fingerprint string
}

// Fix is one way to resolve a finding by editing the file it is in.
type Fix struct {
	Title     string
	Edits     []Edit
	Preferred bool
}

// Edit replaces Content[Start:End] with NewText.
type Edit struct {
	Start   int
	End     int
	NewText string
}

// DocBaseURL is where rule pages live; a rule's page is DocBaseURL + id + ".md".
const DocBaseURL = "https://github.com/aisbx/aisbx/blob/main/docs/rules/"

// RuleDocURL returns the documentation link of an aisbx rule.
func RuleDocURL(rule string) string { return DocBaseURL + rule + ".md" }
