package linters

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/aisbx/aisbx/checks"
)

var goVet = &tool{
	name:        "go vet",
	aliases:     []string{"go-vet", "govet", "vet"},
	id:          "go-vet",
	bin:         "go",
	langs:       []checks.Language{checks.LangGo},
	unit:        unitBytes,
	goBin:       true,
	versionArgs: []string{"version"},
	lint:        lintGoVet,
}

func lintGoVet(ctx context.Context, env *toolEnv, f *checks.File) ([]diag, error) {
	dir, mod, ok := goPackage(f)
	if !ok {
		return nil, nil
	}
	return env.check.pkgs.do(ctx, "go vet", dir, mod, func(ctx context.Context) ([]diag, error) {
		o, err := env.exec(ctx, []string{"vet", "-json", "."}, dir, nil)
		if err != nil {
			return nil, err
		}
		return parseGoVet(o, dir)
	})
}

// vetDiag is one entry of `go vet -json` (golang.org/x/tools/go/analysis's
// JSON tree: package -> analyzer -> diagnostics).
type vetDiag struct {
	Posn           string `json:"posn"`
	End            string `json:"end"`
	Message        string `json:"message"`
	SuggestedFixes []struct {
		Message string `json:"message"`
		Edits   []struct {
			Filename string `json:"filename"`
			Start    int    `json:"start"`
			End      int    `json:"end"`
			New      string `json:"new"`
		} `json:"edits"`
	} `json:"suggested_fixes"`
}

// parseGoVet reads go vet's JSON trees (on stdout since Go 1.25, on stderr
// before), "# package" headers, and, when the package does not type-check,
// plain "file:line:col: msg" errors on stderr.
func parseGoVet(o outcome, dir string) ([]diag, error) {
	var jsonPart bytes.Buffer
	jsonPart.Write(o.Stdout)
	jsonPart.WriteByte('\n')
	var out []diag
	sc := bufio.NewScanner(bytes.NewReader(o.Stderr))
	sc.Buffer(make([]byte, 64<<10), maxOutput)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
		case compileLineRE.MatchString(strings.TrimSpace(line)):
			out = append(out, parseCompileErrors([]byte(line), dir)...)
		default:
			jsonPart.WriteString(line)
			jsonPart.WriteByte('\n')
		}
	}
	dec := json.NewDecoder(&jsonPart)
	for {
		var tree map[string]map[string]json.RawMessage
		err := dec.Decode(&tree)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if len(out) > 0 {
				break // type errors explain the exit; the rest is noise
			}
			if o.ExitCode != 0 {
				return nil, failure(o)
			}
			return nil, fmt.Errorf("reading go vet -json output: %w", err)
		}
		for _, analyzers := range tree {
			for analyzer, raw := range analyzers {
				ds, err := parseVetAnalyzer(analyzer, raw, dir)
				if err != nil {
					return nil, err
				}
				out = append(out, ds...)
			}
		}
	}
	if len(out) == 0 && o.ExitCode != 0 {
		return nil, failure(o)
	}
	return out, nil
}

func parseVetAnalyzer(analyzer string, raw json.RawMessage, dir string) ([]diag, error) {
	var list []vetDiag
	if err := json.Unmarshal(raw, &list); err != nil {
		// An analyzer that failed reports {"error": "..."} instead.
		var failed struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(raw, &failed) == nil && failed.Error != "" {
			return nil, fmt.Errorf("analyzer %s: %s", analyzer, failed.Error)
		}
		return nil, fmt.Errorf("reading go vet -json output of %s: %w", analyzer, err)
	}
	var out []diag
	for _, v := range list {
		file, start, ok := parsePosn(v.Posn, dir)
		if !ok {
			continue
		}
		d := diag{
			File:    file,
			Start:   start,
			Rule:    "go-vet/" + analyzer,
			Message: v.Message,
			DocURL:  "https://pkg.go.dev/golang.org/x/tools/go/analysis/passes/" + analyzer,
		}
		if endFile, end, ok := parsePosn(v.End, dir); ok && endFile == file {
			d.End = end
		}
		for _, sf := range v.SuggestedFixes {
			fix := rawFix{Title: sf.Message}
			for _, e := range sf.Edits {
				if absIn(e.Filename, dir) != file {
					fix.Edits = nil // a fix that edits another file is not ours to offer
					break
				}
				fix.Edits = append(fix.Edits, rawEdit{Abs: true, FromOff: e.Start, ToOff: e.End, Text: e.New})
			}
			if len(fix.Edits) > 0 {
				d.Fixes = append(d.Fixes, fix)
			}
		}
		out = append(out, d)
	}
	return out, nil
}
