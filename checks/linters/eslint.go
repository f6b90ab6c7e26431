package linters

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/aisbx/aisbx/checks"
)

var eslintTool = &tool{
	name:        "eslint",
	id:          "eslint",
	bin:         "eslint",
	langs:       []checks.Language{checks.LangJavaScript, checks.LangTypeScript},
	unit:        unitUTF16, // JavaScript string indices
	stdin:       true,
	local:       []string{"node_modules/.bin"},
	versionArgs: []string{"--version"},
	lint:        lintESLint,
	lintMany:    lintESLintMany,
	workDir:     eslintConfigDir,
	// ESLint starts in about 0.5 s and then spends about 10 ms a file.
	batchSize: 128,
}

// eslintConfigs are the files that mean a project uses ESLint: flat config
// (ESLint 9+) and the legacy .eslintrc family (ESLint 8 and older).
var eslintConfigs = []string{
	"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs",
	"eslint.config.ts", "eslint.config.mts", "eslint.config.cts",
	".eslintrc.js", ".eslintrc.cjs", ".eslintrc.yaml", ".eslintrc.yml", ".eslintrc.json", ".eslintrc",
}

// eslintConfigDir finds the nearest directory, from f's up to the workspace
// root, that holds an ESLint config (or a package.json with eslintConfig).
// Without one the project has not opted into ESLint, and running it would
// only fail with "couldn't find a configuration".
func eslintConfigDir(f *checks.File) string {
	for _, dir := range dirsUp(filepath.Dir(f.Path), f.Root) {
		for _, name := range eslintConfigs {
			if fileExists(filepath.Join(dir, name)) {
				return dir
			}
		}
		if data, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil && bytes.Contains(data, []byte(`"eslintConfig"`)) {
			return dir
		}
	}
	return ""
}

// lintESLint feeds the buffer on stdin from the config's directory, where
// both flat and legacy configs resolve plugins and ignores.
func lintESLint(ctx context.Context, env *toolEnv, f *checks.File) ([]diag, error) {
	dir := eslintConfigDir(f)
	if dir == "" {
		return nil, nil
	}
	args := []string{"--format", "json-with-metadata", "--stdin", "--stdin-filename", f.Path}
	stdout, err := env.lintOutput(ctx, args, dir, f.Content)
	if err != nil {
		return nil, err
	}
	return parseESLint(stdout)
}

// lintESLintMany lints files on disk in one ESLint process started in their
// config's directory (batch.go), as lintESLint lints one buffer.
func lintESLintMany(ctx context.Context, env *toolEnv, dir string, paths []string) (map[string][]diag, map[string]error, error) {
	stdout, err := env.lintOutput(ctx, append([]string{"--format", "json-with-metadata", "--"}, paths...), dir, nil)
	if err != nil {
		return nil, nil, err
	}
	byPath, err := parseESLintFiles(stdout)
	return byPath, nil, err
}

// parseESLint reads the json-with-metadata output of one file.
func parseESLint(stdout []byte) ([]diag, error) {
	byPath, err := parseESLintFiles(stdout)
	if err != nil {
		return nil, err
	}
	var out []diag
	for _, ds := range byPath {
		out = append(out, ds...)
	}
	return out, nil
}

// parseESLintFiles reads the json-with-metadata format, by file
// (filepath.Clean of filePath): results with 1-based lines and UTF-16
// columns (end exclusive), fixes as UTF-16 offsets into the text, and rule
// metadata carrying documentation links.
func parseESLintFiles(stdout []byte) (map[string][]diag, error) {
	type eslintFix struct {
		Range [2]int `json:"range"`
		Text  string `json:"text"`
	}
	var rep struct {
		Results []struct {
			FilePath string `json:"filePath"`
			Messages []struct {
				RuleID      *string    `json:"ruleId"`
				Fatal       bool       `json:"fatal"`
				Severity    int        `json:"severity"`
				Message     string     `json:"message"`
				Line        int        `json:"line"`
				Column      int        `json:"column"`
				EndLine     int        `json:"endLine"`
				EndColumn   int        `json:"endColumn"`
				Fix         *eslintFix `json:"fix"`
				Suggestions []struct {
					Desc string    `json:"desc"`
					Fix  eslintFix `json:"fix"`
				} `json:"suggestions"`
			} `json:"messages"`
		} `json:"results"`
		Metadata struct {
			RulesMeta map[string]struct {
				Docs struct {
					URL string `json:"url"`
				} `json:"docs"`
			} `json:"rulesMeta"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(stdout, &rep); err != nil {
		return nil, fmt.Errorf("reading eslint JSON output: %w", err)
	}
	out := map[string][]diag{}
	for _, res := range rep.Results {
		name := filepath.Clean(res.FilePath)
		for _, m := range res.Messages {
			rule := ""
			if m.RuleID != nil {
				rule = *m.RuleID
			}
			if rule == "" && !m.Fatal {
				continue // "file ignored" notices are not findings
			}
			d := diag{
				Start:    loc{Line: m.Line, Col: m.Column},
				End:      loc{Line: m.EndLine, Col: m.EndColumn},
				Message:  m.Message,
				Severity: checks.SeverityWarning,
			}
			if m.Severity == 2 {
				d.Severity = checks.SeverityError
			}
			if rule == "" {
				d.Rule = "eslint/parse-error"
			} else {
				d.Rule = "eslint/" + rule
				d.DocURL = rep.Metadata.RulesMeta[rule].Docs.URL
			}
			if m.Fix != nil {
				d.Fixes = append(d.Fixes, rawFix{Title: "Fix: " + m.Message, Preferred: true, Edits: []rawEdit{
					{Abs: true, FromOff: m.Fix.Range[0], ToOff: m.Fix.Range[1], Text: m.Fix.Text},
				}})
			}
			for _, s := range m.Suggestions {
				d.Fixes = append(d.Fixes, rawFix{Title: s.Desc, Edits: []rawEdit{
					{Abs: true, FromOff: s.Fix.Range[0], ToOff: s.Fix.Range[1], Text: s.Fix.Text},
				}})
			}
			out[name] = append(out[name], d)
		}
	}
	return out, nil
}
