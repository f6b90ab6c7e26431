package linters

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/aisbx/aisbx/checks"
)

var shellcheckTool = &tool{
	name:        "shellcheck",
	id:          "shellcheck",
	bin:         "shellcheck",
	langs:       []checks.Language{checks.LangShell},
	unit:        unitRunes, // json1 counts characters, a tab as one
	stdin:       true,
	versionArgs: []string{"--version"},
	accepts:     shellcheckAccepts,
	lint:        lintShellcheck,
}

// shellcheckAccepts refuses zsh, which ShellCheck does not support.
func shellcheckAccepts(f *checks.File) bool {
	if strings.EqualFold(filepath.Ext(f.Path), ".zsh") {
		return false
	}
	return !bytes.Contains(shebang(f.Content), []byte("zsh"))
}

func shebang(content []byte) []byte {
	if !bytes.HasPrefix(content, []byte("#!")) {
		return nil
	}
	if i := bytes.IndexByte(content, '\n'); i >= 0 {
		return content[:i]
	}
	return content
}

// lintShellcheck feeds the buffer on stdin. On stdin ShellCheck cannot see
// the file name, so the dialect an extension implies is passed explicitly
// when there is no shebang to tell it.
func lintShellcheck(ctx context.Context, env *toolEnv, f *checks.File) ([]diag, error) {
	args := []string{"--format", "json1"}
	if shebang(f.Content) == nil {
		switch strings.ToLower(filepath.Ext(f.Path)) {
		case ".bash":
			args = append(args, "--shell", "bash")
		case ".ksh":
			args = append(args, "--shell", "ksh")
		case ".dash":
			args = append(args, "--shell", "dash")
		}
	}
	args = append(args, "-")
	stdout, err := env.lintOutput(ctx, args, filepath.Dir(f.Path), f.Content)
	if err != nil {
		return nil, err
	}
	return parseShellcheck(stdout)
}

// parseShellcheck reads json1: 1-based lines and character columns, end
// exclusive, and fixes as lists of replacements.
func parseShellcheck(stdout []byte) ([]diag, error) {
	var rep struct {
		Comments []struct {
			Line      int    `json:"line"`
			EndLine   int    `json:"endLine"`
			Column    int    `json:"column"`
			EndColumn int    `json:"endColumn"`
			Level     string `json:"level"`
			Code      int    `json:"code"`
			Message   string `json:"message"`
			Fix       *struct {
				Replacements []struct {
					Line        int    `json:"line"`
					EndLine     int    `json:"endLine"`
					Column      int    `json:"column"`
					EndColumn   int    `json:"endColumn"`
					Replacement string `json:"replacement"`
				} `json:"replacements"`
			} `json:"fix"`
		} `json:"comments"`
	}
	if err := json.Unmarshal(stdout, &rep); err != nil {
		return nil, fmt.Errorf("reading shellcheck json1 output: %w", err)
	}
	out := make([]diag, 0, len(rep.Comments))
	for _, c := range rep.Comments {
		code := fmt.Sprintf("SC%04d", c.Code)
		d := diag{
			Start:    loc{Line: c.Line, Col: c.Column},
			End:      loc{Line: c.EndLine, Col: c.EndColumn},
			Rule:     "shellcheck/" + code,
			Message:  c.Message,
			DocURL:   "https://www.shellcheck.net/wiki/" + code,
			Severity: shellcheckSeverity(c.Level),
		}
		if c.Fix != nil && len(c.Fix.Replacements) > 0 {
			fix := rawFix{Title: "Apply ShellCheck's fix for " + code, Preferred: true}
			for _, r := range c.Fix.Replacements {
				fix.Edits = append(fix.Edits, rawEdit{
					From: loc{Line: r.Line, Col: r.Column},
					To:   loc{Line: r.EndLine, Col: r.EndColumn},
					Text: r.Replacement,
				})
			}
			d.Fixes = append(d.Fixes, fix)
		}
		out = append(out, d)
	}
	return out, nil
}

func shellcheckSeverity(level string) checks.Severity {
	switch level {
	case "error":
		return checks.SeverityError
	case "warning":
		return checks.SeverityWarning
	case "info":
		return checks.SeverityInfo
	}
	return checks.SeverityHint // style
}
