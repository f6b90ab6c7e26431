package report

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/aisbx/aisbx/checks"
)

// SARIF's shape, limited to what aisbx writes.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                   `json:"tool"`
		Invocations        []sarifInvocation           `json:"invocations"`
		OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
		Results            []sarifResult               `json:"results"`
		ColumnKind         string                      `json:"columnKind"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Version        string      `json:"version,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string          `json:"id"`
		Name                 string          `json:"name"`
		ShortDescription     sarifText       `json:"shortDescription"`
		FullDescription      sarifText       `json:"fullDescription"`
		HelpURI              string          `json:"helpUri,omitempty"`
		Help                 *sarifText      `json:"help,omitempty"`
		DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
		Properties           sarifRuleProps  `json:"properties"`
	}
	sarifRuleConfig struct {
		Level string `json:"level"`
	}
	sarifRuleProps struct {
		Tags             []string `json:"tags"`
		SecuritySeverity string   `json:"security-severity,omitempty"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifInvocation struct {
		ExecutionSuccessful        bool                `json:"executionSuccessful"`
		ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level     string          `json:"level"`
		Message   sarifText       `json:"message"`
		Locations []sarifLocation `json:"locations,omitempty"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
		Region           *sarifRegion     `json:"region,omitempty"`
	}
	sarifArtifactLoc struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine"`
		EndColumn   int `json:"endColumn"`
	}
)

const (
	sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"
	srcRoot     = "%SRCROOT%"
	toolURI     = "https://github.com/aisbx/aisbx"
)

// WriteSARIF writes r as a SARIF 2.1.0 log that GitHub code scanning
// accepts: rules with descriptions, help links, tags and security-severity;
// results with root-relative URIs, UTF-16 regions and GitHub's
// primaryLocationLineHash. It carries no code snippets, so no secret leaves
// through it.
func WriteSARIF(w io.Writer, r *Report) error {
	files := r.view()
	rules, index := sarifRules(r.Rules, files)
	run := sarifRun{
		Tool:        sarifTool{Driver: sarifDriver{Name: "aisbx", InformationURI: toolURI, Version: r.Version, Rules: rules}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true}},
		Results:     []sarifResult{},
		ColumnKind:  "utf16CodeUnits",
	}
	if r.Root != "" {
		root := filepath.ToSlash(r.Root)
		if !strings.HasSuffix(root, "/") {
			root += "/"
		}
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{srcRoot: {URI: (&url.URL{Scheme: "file", Path: root}).String()}}
	}
	for _, e := range r.Errors {
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications, sarifNotification{
			Level:     "warning",
			Message:   sarifText{Text: e.Check + ": " + e.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: artifact(r.rel(e.Path))}}},
		})
	}
	for _, f := range files {
		hashes := lineHashes(f.Content)
		for _, fd := range f.Findings {
			res := sarifResult{
				RuleID:    fd.Rule,
				RuleIndex: index[fd.Rule],
				Level:     sarifLevel(fd.Severity),
				Message:   sarifText{Text: nonEmpty(fd.Message, fd.Rule)},
				Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
					ArtifactLocation: artifact(f.Rel),
					Region: &sarifRegion{
						StartLine: fd.pos.Line, StartColumn: fd.pos.Col,
						EndLine: fd.pos.EndLine, EndColumn: fd.pos.EndCol,
					},
				}}},
			}
			if i := fd.pos.Line - 1; i < len(hashes) {
				res.PartialFingerprints = map[string]string{"primaryLocationLineHash": hashes[i]}
			}
			run.Results = append(run.Results, res)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

func artifact(rel string) sarifArtifactLoc {
	if filepath.IsAbs(filepath.FromSlash(rel)) {
		return sarifArtifactLoc{URI: (&url.URL{Scheme: "file", Path: rel}).String()}
	}
	return sarifArtifactLoc{URI: uriOf(rel), URIBaseID: srcRoot}
}

// sarifRules lists the known rules, plus a rule built from the first finding
// of every rule that is not known (a linter's), sorted by id; index maps ids
// to positions for results' ruleIndex.
func sarifRules(known []checks.Rule, files []fileView) ([]sarifRule, map[string]int) {
	byID := map[string]checks.Rule{}
	for _, r := range known {
		byID[r.ID] = r
	}
	for _, f := range files {
		for _, fd := range f.Findings {
			if _, ok := byID[fd.Rule]; !ok {
				byID[fd.Rule] = ruleFromFinding(fd.Finding)
			}
		}
	}
	ids := slices.Sorted(maps.Keys(byID))
	rules := make([]sarifRule, len(ids))
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		rules[i] = sarifRuleOf(byID[id])
		index[id] = i
	}
	return rules, index
}

// ruleFromFinding describes a rule nobody listed, from what its finding
// says. The message is not used as a description: for a secret it would be
// specific to one value.
func ruleFromFinding(fd checks.Finding) checks.Rule {
	r := checks.Rule{ID: fd.Rule, Category: fd.Category, Severity: fd.Severity, DocURL: fd.DocURL, Title: fd.Rule}
	if fd.Tool != "" {
		r.Title = fd.Tool + " " + strings.TrimPrefix(fd.Rule, toolPrefix(fd.Rule))
		r.Description = "Reported by " + fd.Tool + " (" + fd.Rule + ")."
	}
	if isSecurity(fd.Category) {
		switch fd.Severity {
		case checks.SeverityError:
			r.SecuritySeverity = 7.0
		case checks.SeverityWarning:
			r.SecuritySeverity = 5.0
		default:
			r.SecuritySeverity = 3.0
		}
	}
	return r
}

func toolPrefix(rule string) string {
	if i := strings.IndexByte(rule, '/'); i >= 0 {
		return rule[:i+1]
	}
	return ""
}

func sarifRuleOf(r checks.Rule) sarifRule {
	sr := sarifRule{
		ID:                   r.ID,
		Name:                 pascal(r.ID),
		ShortDescription:     sarifText{Text: nonEmpty(r.Title, r.ID)},
		FullDescription:      sarifText{Text: nonEmpty(r.Description, nonEmpty(r.Title, r.ID))},
		HelpURI:              r.DocURL,
		DefaultConfiguration: sarifRuleConfig{Level: sarifLevel(r.Severity)},
		Properties:           sarifRuleProps{Tags: []string{}},
	}
	help := nonEmpty(r.Description, r.Title)
	if r.DocURL != "" {
		help = strings.TrimSpace(help + "\n\nSee " + r.DocURL)
	}
	if help != "" {
		sr.Help = &sarifText{Text: help}
	}
	if isSecurity(r.Category) {
		sr.Properties.Tags = append(sr.Properties.Tags, "security")
	}
	if r.Category != "" {
		sr.Properties.Tags = append(sr.Properties.Tags, string(r.Category))
	}
	if r.SecuritySeverity > 0 {
		sr.Properties.SecuritySeverity = fmt.Sprintf("%.1f", min(r.SecuritySeverity, 10))
	}
	return sr
}

func isSecurity(c checks.Category) bool {
	return c == checks.CategorySecret || c == checks.CategoryDangerous || c == checks.CategoryDependency
}

func sarifLevel(s checks.Severity) string {
	switch s {
	case checks.SeverityError:
		return "error"
	case checks.SeverityWarning:
		return "warning"
	}
	return "note"
}

// pascal turns a rule id into the identifier-like name SARIF recommends:
// "ruff/F401" -> "RuffF401", "aws-access-key-id" -> "AwsAccessKeyId".
func pascal(id string) string {
	var b strings.Builder
	up := true
	for _, r := range id {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func nonEmpty(s, fallback string) string {
	if strings.TrimSpace(s) == "" {
		return fallback
	}
	return s
}
