package linters

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/aisbx/aisbx/checks"
)

var ruffTool = &tool{
	name:        "ruff",
	id:          "ruff",
	bin:         "ruff",
	langs:       []checks.Language{checks.LangPython},
	unit:        unitRunes,
	stdin:       true,
	local:       []string{".venv/bin", "venv/bin"},
	versionArgs: []string{"--version"},
	lint:        lintRuff,
}

// lintRuff feeds the buffer on stdin; --stdin-filename lets ruff find the
// project's configuration and apply per-file rules as if it read the file.
func lintRuff(ctx context.Context, env *toolEnv, f *checks.File) ([]diag, error) {
	args := []string{"check", "--output-format", "json", "--no-fix", "--force-exclude", "--stdin-filename", f.Path, "-"}
	stdout, err := env.lintOutput(ctx, args, projectDir(f), f.Content)
	if err != nil {
		return nil, err
	}
	return parseRuff(stdout)
}

type ruffLoc struct {
	Row    int `json:"row"`
	Column int `json:"column"`
}

// parseRuff reads `ruff check --output-format json`: an array of messages
// with 1-based rows and character columns.
func parseRuff(stdout []byte) ([]diag, error) {
	var msgs []struct {
		Code        *string `json:"code"`
		Message     string  `json:"message"`
		Location    ruffLoc `json:"location"`
		EndLocation ruffLoc `json:"end_location"`
		URL         *string `json:"url"`
		Fix         *struct {
			Applicability json.RawMessage `json:"applicability"`
			Message       *string         `json:"message"`
			Edits         []struct {
				Content     string  `json:"content"`
				Location    ruffLoc `json:"location"`
				EndLocation ruffLoc `json:"end_location"`
			} `json:"edits"`
		} `json:"fix"`
	}
	if err := json.Unmarshal(stdout, &msgs); err != nil {
		return nil, fmt.Errorf("reading ruff JSON output: %w", err)
	}
	out := make([]diag, 0, len(msgs))
	for _, m := range msgs {
		d := diag{
			Start:   loc{Line: m.Location.Row, Col: m.Location.Column},
			End:     loc{Line: m.EndLocation.Row, Col: m.EndLocation.Column},
			Rule:    "ruff/syntax-error",
			Message: m.Message,
		}
		if m.Code != nil && *m.Code != "" {
			d.Rule = "ruff/" + *m.Code
		} else {
			d.Severity = checks.SeverityError
		}
		if m.URL != nil {
			d.DocURL = *m.URL
		}
		if m.Fix != nil && len(m.Fix.Edits) > 0 {
			fix := rawFix{Preferred: ruffSafe(m.Fix.Applicability)}
			if m.Fix.Message != nil {
				fix.Title = *m.Fix.Message
			}
			for _, e := range m.Fix.Edits {
				fix.Edits = append(fix.Edits, rawEdit{
					From: loc{Line: e.Location.Row, Col: e.Location.Column},
					To:   loc{Line: e.EndLocation.Row, Col: e.EndLocation.Column},
					Text: e.Content,
				})
			}
			d.Fixes = append(d.Fixes, fix)
		}
		out = append(out, d)
	}
	return out, nil
}

// projectDir is where a tool that looks for its configuration from the
// working directory should run: the workspace root, else the file's dir.
func projectDir(f *checks.File) string {
	if f.Root != "" {
		return f.Root
	}
	return filepath.Dir(f.Path)
}

// ruffSafe reads a fix's applicability: a string ("safe") in current ruff,
// an object ({"automatic": "safe"}) in older releases.
func ruffSafe(raw json.RawMessage) bool {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s == "safe"
	}
	var old map[string]string
	if json.Unmarshal(raw, &old) == nil {
		for _, v := range old {
			return v == "safe"
		}
	}
	return false
}
