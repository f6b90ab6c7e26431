package linters

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/aisbx/aisbx/checks"
)

var golangciLint = &tool{
	name:        "golangci-lint",
	aliases:     []string{"golangci", "golangci_lint"},
	id:          "golangci-lint",
	bin:         "golangci-lint",
	langs:       []checks.Language{checks.LangGo},
	unit:        unitBytes,
	goBin:       true,
	versionArgs: []string{"--version"},
	lint:        lintGolangci,
}

// golangciMajor caches the major version of each golangci-lint binary: v2
// replaced --out-format with --output.<format>.path.
var golangciMajor sync.Map // path -> int

var golangciVersionRE = regexp.MustCompile(`version v?(\d+)\.`)

func golangciVersion(ctx context.Context, env *toolEnv) int {
	if v, ok := golangciMajor.Load(env.bin); ok {
		return v.(int)
	}
	major := 2
	o, err := env.exec(ctx, []string{"--version"}, "", nil)
	if err == nil {
		if m := golangciVersionRE.FindSubmatch(o.Stdout); m != nil {
			major, _ = strconv.Atoi(string(m[1]))
		}
		golangciMajor.Store(env.bin, major)
	}
	return major
}

func golangciArgs(major int) []string {
	common := []string{"--allow-parallel-runners", "--issues-exit-code=0"}
	if major < 2 {
		return append([]string{"run", "--out-format=json", "--print-issued-lines=false"}, append(common, ".")...)
	}
	return append([]string{"run", "--output.json.path=stdout", "--show-stats=false", "--path-mode=abs"}, append(common, ".")...)
}

func lintGolangci(ctx context.Context, env *toolEnv, f *checks.File) ([]diag, error) {
	dir, mod, ok := goPackage(f)
	if !ok {
		return nil, nil
	}
	return env.check.pkgs.do(ctx, "golangci-lint", dir, mod, func(ctx context.Context) ([]diag, error) {
		o, err := env.exec(ctx, golangciArgs(golangciVersion(ctx, env)), dir, nil)
		if err != nil {
			return nil, err
		}
		if o.ExitCode != 0 {
			return nil, failure(o)
		}
		return parseGolangci(o.Stdout, dir)
	})
}

// staticcheckCodeRE finds the check code golangci-lint's staticcheck
// messages start with ("SA9003: empty branch").
var staticcheckCodeRE = regexp.MustCompile(`^((?:SA|S|ST|QF|U)\d{4}): `)

// parseGolangci reads golangci-lint's JSON report. Positions are go/token
// byte columns; Column 0 means "the line".
func parseGolangci(stdout []byte, dir string) ([]diag, error) {
	var rep struct {
		Issues []struct {
			FromLinter string `json:"FromLinter"`
			Text       string `json:"Text"`
			Severity   string `json:"Severity"`
			Pos        struct {
				Filename string `json:"Filename"`
				Line     int    `json:"Line"`
				Column   int    `json:"Column"`
			} `json:"Pos"`
			SuggestedFixes []struct {
				Message   string `json:"Message"`
				TextEdits []struct {
					Pos     int    `json:"Pos"`
					End     int    `json:"End"`
					NewText []byte `json:"NewText"` // a Go []byte: base64 in JSON
				} `json:"TextEdits"`
			} `json:"SuggestedFixes"`
		} `json:"Issues"`
		Report struct {
			Error string `json:"Error"`
		} `json:"Report"`
	}
	if err := json.Unmarshal(stdout, &rep); err != nil {
		return nil, fmt.Errorf("reading golangci-lint JSON output: %w", err)
	}
	if rep.Report.Error != "" {
		return nil, fmt.Errorf("golangci-lint: %s", rep.Report.Error)
	}
	var out []diag
	for _, is := range rep.Issues {
		if is.FromLinter == "typecheck" {
			out = append(out, parseCompileErrors([]byte(strings.TrimPrefix(is.Text, ": ")), dir)...)
			continue
		}
		d := diag{
			File:     absIn(is.Pos.Filename, dir),
			Start:    loc{Line: is.Pos.Line, Col: is.Pos.Column},
			Rule:     "golangci-lint/" + is.FromLinter,
			Message:  is.Text,
			Severity: golangciSeverity(is.Severity),
		}
		switch {
		case is.FromLinter == "staticcheck":
			if m := staticcheckCodeRE.FindStringSubmatch(is.Text); m != nil {
				d.DocURL = "https://staticcheck.dev/docs/checks#" + m[1]
			}
		case is.FromLinter == "govet":
			if analyzer, _, ok := strings.Cut(is.Text, ": "); ok && !strings.Contains(analyzer, " ") {
				d.DocURL = "https://pkg.go.dev/golang.org/x/tools/go/analysis/passes/" + analyzer
			}
		}
		for _, sf := range is.SuggestedFixes {
			fix := rawFix{Title: sf.Message}
			for _, e := range sf.TextEdits {
				fix.Edits = append(fix.Edits, rawEdit{Abs: true, FromOff: e.Pos, ToOff: e.End, Text: string(e.NewText)})
			}
			if len(fix.Edits) > 0 {
				d.Fixes = append(d.Fixes, fix)
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// golangciSeverity maps the severity a user's config assigns; issues carry
// none by default, and then they are warnings.
func golangciSeverity(s string) checks.Severity {
	switch strings.ToLower(s) {
	case "error":
		return checks.SeverityError
	case "info":
		return checks.SeverityInfo
	case "hint", "style":
		return checks.SeverityHint
	}
	return checks.SeverityWarning
}
