package linters

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/aisbx/aisbx/checks"
)

var staticcheckTool = &tool{
	name:        "staticcheck",
	id:          "staticcheck",
	bin:         "staticcheck",
	langs:       []checks.Language{checks.LangGo},
	unit:        unitBytes,
	goBin:       true,
	versionArgs: []string{"-version"},
	lint:        lintStaticcheck,
}

func lintStaticcheck(ctx context.Context, env *toolEnv, f *checks.File) ([]diag, error) {
	dir, mod, ok := goPackage(f)
	if !ok {
		return nil, nil
	}
	return env.check.pkgs.do(ctx, "staticcheck", dir, mod, func(ctx context.Context) ([]diag, error) {
		o, err := env.exec(ctx, []string{"-f", "json", "."}, dir, nil)
		if err != nil {
			return nil, err
		}
		return parseStaticcheck(o, dir)
	})
}

type staticcheckPos struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// parseStaticcheck reads `staticcheck -f json`: one object per line. It exits
// 1 when it reports anything.
func parseStaticcheck(o outcome, dir string) ([]diag, error) {
	var out []diag
	sc := bufio.NewScanner(bytes.NewReader(o.Stdout))
	sc.Buffer(make([]byte, 64<<10), maxOutput)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var p struct {
			Code     string         `json:"code"`
			Severity string         `json:"severity"`
			Location staticcheckPos `json:"location"`
			End      staticcheckPos `json:"end"`
			Message  string         `json:"message"`
		}
		if err := json.Unmarshal(line, &p); err != nil {
			if o.ExitCode > 1 || o.ExitCode < 0 {
				return nil, failure(o)
			}
			return nil, fmt.Errorf("reading staticcheck -f json output: %w", err)
		}
		switch p.Code {
		case "compile":
			out = append(out, parseCompileErrors([]byte(p.Message), dir)...)
			continue
		case "config":
			// A broken staticcheck.conf: its diagnostic names the config
			// file, which no checked file would ever claim.
			return nil, fmt.Errorf("%s:%d: %s", p.Location.File, p.Location.Line, p.Message)
		}
		if p.Location.File == "" {
			continue
		}
		d := diag{
			File:    absIn(p.Location.File, dir),
			Start:   loc{Line: p.Location.Line, Col: p.Location.Column},
			Rule:    "staticcheck/" + p.Code,
			Message: p.Message,
			DocURL:  "https://staticcheck.dev/docs/checks#" + p.Code,
			// staticcheck calls everything "error" unless configured; a
			// style hint must not fail a CI gate set to errors.
			Severity: checks.SeverityWarning,
		}
		if p.End.File != "" && absIn(p.End.File, dir) == d.File {
			d.End = loc{Line: p.End.Line, Col: p.End.Column}
		}
		out = append(out, d)
	}
	// It exits 1 both when it reports something and when it fails.
	if len(out) == 0 && (o.ExitCode > 1 || o.ExitCode != 0 && len(bytes.TrimSpace(o.Stderr)) > 0) {
		return nil, failure(o)
	}
	return out, nil
}
