package linters

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
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
	lintMany:    lintBanditMany,
}

func lintBandit(ctx context.Context, env *toolEnv, f *checks.File) ([]diag, error) {
	stdout, err := env.lintOutput(ctx, []string{"-f", "json", "-q", f.Path}, projectDir(f), nil)
	if err != nil {
		return nil, err
	}
	return parseBandit(stdout)
}

// lintBanditMany checks many files in one bandit process (batch.go).
func lintBanditMany(ctx context.Context, env *toolEnv, dir string, paths []string) (map[string][]diag, map[string]error, error) {
	stdout, err := env.lintOutput(ctx, append([]string{"-f", "json", "-q"}, paths...), dir, nil)
	if err != nil {
		return nil, nil, err
	}
	byPath, failed, err := parseBanditFiles(stdout)
	if err != nil {
		return nil, nil, err
	}
	errs := map[string]error{}
	for _, e := range failed {
		errs[filepath.Clean(e.Filename)] = e
	}
	return byPath, errs, nil
}

// parseBandit reads `bandit -f json` of one file.
func parseBandit(stdout []byte) ([]diag, error) {
	byPath, failed, err := parseBanditFiles(stdout)
	if err != nil {
		return nil, err
	}
	if len(failed) > 0 {
		return nil, failed[0]
	}
	out := []diag{}
	for _, ds := range byPath {
		out = append(out, ds...)
	}
	return out, nil
}

// banditError is a file bandit could not check.
type banditError struct {
	Filename string `json:"filename"`
	Reason   string `json:"reason"`
}

func (e banditError) Error() string {
	return fmt.Sprintf("bandit could not check %s: %s", e.Filename, e.Reason)
}

// parseBanditFiles reads `bandit -f json`: the diagnostics by file
// (filepath.Clean of the name bandit was given) and the files it could not
// check. Bandit 1.7.3+ gives 0-based byte columns (col_offset,
// end_col_offset on the last line of line_range); older versions give only
// lines.
func parseBanditFiles(stdout []byte) (map[string][]diag, []banditError, error) {
	var rep struct {
		Errors  []banditError `json:"errors"`
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
		return nil, nil, fmt.Errorf("reading bandit JSON output: %w", err)
	}
	out := map[string][]diag{}
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
		name := filepath.Clean(r.Filename)
		out[name] = append(out[name], d)
	}
	return out, rep.Errors, nil
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
