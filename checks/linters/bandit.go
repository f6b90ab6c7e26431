package linters

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/aisbx/aisbx/checks"
)

var banditTool = &tool{
	name:        "bandit",
	id:          "bandit",
	bin:         "bandit",
	langs:       []checks.Language{checks.LangPython},
	unit:        unitBytes, // Python's ast col_offset counts UTF-8 bytes
	local:       []string{".venv/bin", "venv/bin"},
	versionArgs: []string{"--version"},
	lint:        lintBandit,
}

func lintBandit(ctx context.Context, env *toolEnv, f *checks.File) ([]diag, error) {
	o, err := env.exec(ctx, []string{"-f", "json", "-q", f.Path}, projectDir(f), nil)
	if err != nil {
		return nil, err
	}
	if o.ExitCode != 0 && o.ExitCode != 1 {
		return nil, failure(o)
	}
	return parseBandit(o.Stdout)
}

// parseBandit reads `bandit -f json`. Bandit 1.7.3+ gives 0-based byte
// columns (col_offset, end_col_offset on the last line of line_range);
// older versions give only lines.
func parseBandit(stdout []byte) ([]diag, error) {
	var rep struct {
		Errors []struct {
			Filename string `json:"filename"`
			Reason   string `json:"reason"`
		} `json:"errors"`
		Results []struct {
			Filename     string `json:"filename"`
			LineNumber   int    `json:"line_number"`
			LineRange    []int  `json:"line_range"`
			ColOffset    *int   `json:"col_offset"`
			EndColOffset *int   `json:"end_col_offset"`
			TestID       string `json:"test_id"`
			TestName     string `json:"test_name"`
			IssueText    string `json:"issue_text"`
			Severity     string `json:"issue_severity"`
			Confidence   string `json:"issue_confidence"`
			MoreInfo     string `json:"more_info"`
		} `json:"results"`
	}
	if err := json.Unmarshal(stdout, &rep); err != nil {
		return nil, fmt.Errorf("reading bandit JSON output: %w", err)
	}
	if len(rep.Errors) > 0 {
		return nil, fmt.Errorf("bandit could not check %s: %s", rep.Errors[0].Filename, rep.Errors[0].Reason)
	}
	out := make([]diag, 0, len(rep.Results))
	for _, r := range rep.Results {
		d := diag{
			Start:    loc{Line: r.LineNumber},
			Rule:     "bandit/" + r.TestID,
			Message:  redactBandit(r.TestID, r.IssueText),
			DocURL:   r.MoreInfo,
			Severity: banditSeverity(r.Severity),
		}
		if r.ColOffset != nil {
			d.Start.Col = *r.ColOffset + 1
			if r.EndColOffset != nil && len(r.LineRange) > 0 {
				d.End = loc{Line: r.LineRange[len(r.LineRange)-1], Col: *r.EndColOffset + 1}
			}
		}
		out = append(out, d)
	}
	return out, nil
}

func banditSeverity(s string) checks.Severity {
	switch strings.ToUpper(s) {
	case "HIGH":
		return checks.SeverityError
	case "MEDIUM":
		return checks.SeverityWarning
	}
	return checks.SeverityInfo
}

// banditQuoted matches the value bandit's hard-coded password tests quote in
// their message: "Possible hardcoded password: 'hunter2'".
var banditQuoted = regexp.MustCompile(`: '(.*)'$`)

// redactBandit keeps found passwords out of messages: bandit's B105-B107
// quote the value in full.
func redactBandit(testID, text string) string {
	switch testID {
	case "B105", "B106", "B107":
	default:
		return text
	}
	return banditQuoted.ReplaceAllStringFunc(text, func(m string) string {
		v := banditQuoted.FindStringSubmatch(m)[1]
		return fmt.Sprintf(": '%s' (redacted, %d characters)", redacted(v), utf8.RuneCountInString(v))
	})
}

// redacted shows at most the first two characters of a value, and none of a
// short one.
func redacted(v string) string {
	if utf8.RuneCountInString(v) < 8 {
		return "…"
	}
	r := []rune(v)
	return string(r[:2]) + "…"
}
