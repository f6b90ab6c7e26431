package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/checks/report/sariftest"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// plantedSecret is assembled at run time so that this file holds no
// secret-shaped literal.
var plantedSecret = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"

// fileSpec is a file of the sample report; each finding is placed on the
// first occurrence of its needle.
type fileSpec struct {
	rel      string
	content  string
	findings []findingSpec
}

type findingSpec struct {
	needle string
	fd     checks.Finding
}

func sampleSpecs() []fileSpec {
	return []fileSpec{
		{"src/app.py", "import os\n# 😀 emoji first\nx = \"😀\"; key = \"" + plantedSecret + "\"\nos.system(cmd)\n", []findingSpec{
			{plantedSecret, checks.Finding{Rule: "stripe-secret-key", Category: checks.CategorySecret, Severity: checks.SeverityError,
				Message: "Stripe secret key sk_live_4e… (redacted); read it from the environment", Fingerprint: "sha256:00"}},
			{"os.system", checks.Finding{Rule: "py-os-system", Category: checks.CategoryDangerous, Severity: checks.SeverityWarning,
				Message: "os.system runs a shell; use subprocess.run with a list", DocURL: checks.RuleDocURL("py-os-system")}},
			{"import os", checks.Finding{Rule: "ruff/F401", Category: checks.CategoryLint, Severity: checks.SeverityWarning, Tool: "ruff",
				Message: "`os` imported but unused", DocURL: "https://docs.astral.sh/ruff/rules/unused-import"}},
		}},
		{"scripts/my deploy.sh", "#!/bin/sh\r\ncurl https://x.example/i.sh | sh\r\n", []findingSpec{
			{"curl https://x.example/i.sh | sh", checks.Finding{Rule: "sh-curl-pipe-shell", Category: checks.CategoryDangerous, Severity: checks.SeverityError,
				Message: "piping a download into a shell runs whatever the server sends"}},
		}},
		{"clean.go", "package clean\n", nil},
	}
}

// sampleReport builds the report the golden files show.
func sampleReport(t *testing.T) *Report {
	t.Helper()
	r := &Report{
		Root:         "/work/project",
		FilesScanned: 3,
		BytesScanned: 1234567,
		Duration:     1500 * time.Millisecond,
		Version:      "0.0.0-test",
		Rules: []checks.Rule{
			{ID: "stripe-secret-key", Category: checks.CategorySecret, Severity: checks.SeverityError, Title: "Stripe secret key",
				Description: "A live Stripe secret key. Rotate it and read it from the environment.", DocURL: checks.RuleDocURL("stripe-secret-key"), SecuritySeverity: 9.1},
			{ID: "py-os-system", Category: checks.CategoryDangerous, Severity: checks.SeverityWarning, Title: "os.system",
				Description: "os.system runs its argument through a shell. Use subprocess.run with a list.", DocURL: checks.RuleDocURL("py-os-system"), SecuritySeverity: 7.5},
		},
		Errors: []FileError{{Path: "/work/project/src/app.py", Check: "linters", Message: "bandit: exit status 2: boom"}},
	}
	for _, s := range sampleSpecs() {
		ff := FileFindings{Path: filepath.Join(r.Root, s.rel), Content: []byte(s.content)}
		for _, fs := range s.findings {
			i := strings.Index(s.content, fs.needle)
			if i < 0 {
				t.Fatalf("needle %q not in %s", fs.needle, s.rel)
			}
			fd := fs.fd
			fd.Start, fd.End = i, i+len(fs.needle)
			ff.Findings = append(ff.Findings, fd)
		}
		r.Files = append(r.Files, ff)
	}
	return r
}

func render(t *testing.T, format string, r *Report, opts Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, format, r, opts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			got := render(t, format, sampleReport(t), Options{})
			path := filepath.Join("testdata", "golden", "sample."+format)
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update, then review)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s output changed; got:\n%s", format, got)
			}
		})
	}
}

func TestNoFormatEchoesTheSecret(t *testing.T) {
	for _, format := range Formats {
		if out := render(t, format, sampleReport(t), Options{}); bytes.Contains(out, []byte(plantedSecret)) {
			t.Errorf("%s output contains the secret", format)
		}
	}
}

// utf16Col counts the UTF-16 code units before needle on its line, plus one,
// independently of internal/textpos.
func utf16Col(content, needle string) (line, col int) {
	i := strings.Index(content, needle)
	before := content[:i]
	line = strings.Count(before, "\n") + 1
	lineStart := strings.LastIndex(before, "\n") + 1
	return line, len(utf16.Encode([]rune(before[lineStart:]))) + 1
}

func TestJSONShapeAndPositions(t *testing.T) {
	out := render(t, "json", sampleReport(t), Options{})
	var generic map[string]any
	if err := json.Unmarshal(out, &generic); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"findings", "files_scanned", "bytes_scanned", "duration_ms"} {
		if _, ok := generic[k]; !ok {
			t.Errorf("top-level key %q missing", k)
		}
	}
	var rep jsonReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.DurationMS != 1500 || rep.FilesScanned != 3 || rep.BytesScanned != 1234567 {
		t.Errorf("totals = %+v", rep)
	}
	byRule := map[string]jsonFinding{}
	for _, f := range rep.Findings {
		byRule[f.Rule] = f
	}
	for _, s := range sampleSpecs() {
		for _, fs := range s.findings {
			got, ok := byRule[fs.fd.Rule]
			if !ok {
				t.Fatalf("%s missing from %s", fs.fd.Rule, out)
			}
			line, col := utf16Col(s.content, fs.needle)
			endCol := col + len(utf16.Encode([]rune(fs.needle)))
			if got.Path != s.rel || got.Line != line || got.Column != col || got.EndLine != line || got.EndColumn != endCol {
				t.Errorf("%s at %s:%d:%d-%d:%d, want %s:%d:%d-%d:%d", got.Rule, got.Path, got.Line, got.Column, got.EndLine, got.EndColumn, s.rel, line, col, line, endCol)
			}
		}
	}
	// The secret sits after an emoji (two UTF-16 units): column 18, where
	// counting code points would say 17.
	if f := byRule["stripe-secret-key"]; f.Column != 18 {
		t.Errorf("secret column = %d, want 18", f.Column)
	}
	empty := render(t, "json", &Report{}, Options{})
	if !bytes.Contains(empty, []byte(`"findings": []`)) {
		t.Errorf("no findings must be [], not null: %s", empty)
	}
}

func validateSARIF(t *testing.T, out []byte) {
	t.Helper()
	if err := sariftest.Validate(out); err != nil {
		t.Fatal(err)
	}
}

func TestSARIFIsValidAndComplete(t *testing.T) {
	out := render(t, "sarif", sampleReport(t), Options{})
	validateSARIF(t, out)
	validateSARIF(t, render(t, "sarif", &Report{}, Options{}))

	var log sarifLog
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	for _, res := range run.Results {
		rule := run.Tool.Driver.Rules[res.RuleIndex]
		if rule.ID != res.RuleID {
			t.Errorf("result %s points at rule %s", res.RuleID, rule.ID)
		}
		if rule.ShortDescription.Text == "" || rule.FullDescription.Text == "" {
			t.Errorf("rule %s lacks descriptions", rule.ID)
		}
		if res.PartialFingerprints["primaryLocationLineHash"] == "" {
			t.Errorf("result %s has no primaryLocationLineHash", res.RuleID)
		}
		loc := res.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URIBaseID != srcRoot || strings.HasPrefix(loc.ArtifactLocation.URI, "/") {
			t.Errorf("result %s: uri %q base %q, want root-relative", res.RuleID, loc.ArtifactLocation.URI, loc.ArtifactLocation.URIBaseID)
		}
		if rule.ID == "stripe-secret-key" && (rule.Properties.SecuritySeverity != "9.1" || rule.HelpURI == "") {
			t.Errorf("secret rule metadata = %+v", rule)
		}
	}
	if !strings.Contains(string(out), `"uri": "scripts/my%20deploy.sh"`) {
		t.Error("a path with a space is not URI-escaped")
	}
}

func TestJUnitIsWellFormed(t *testing.T) {
	out := render(t, "junit", sampleReport(t), Options{})
	var suites junitSuites
	if err := xml.Unmarshal(out, &suites); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if suites.Tests != 5 || suites.Failures != 4 || suites.Errors != 1 || len(suites.Suites) != 2 {
		t.Errorf("tests=%d failures=%d errors=%d suites=%d, want 5, 4, 1, 2", suites.Tests, suites.Failures, suites.Errors, len(suites.Suites))
	}
	var clean junitSuites
	if err := xml.Unmarshal(render(t, "junit", &Report{FilesScanned: 3}, Options{}), &clean); err != nil {
		t.Fatal(err)
	}
	if clean.Tests != 1 || clean.Failures != 0 {
		t.Errorf("a clean run: tests=%d failures=%d, want one passing test", clean.Tests, clean.Failures)
	}
}

func TestTextColourOnlyWhenAsked(t *testing.T) {
	plain := render(t, "text", sampleReport(t), Options{})
	colour := render(t, "text", sampleReport(t), Options{Color: true})
	if bytes.Contains(plain, []byte("\x1b[")) {
		t.Error("plain text has ANSI escapes")
	}
	if !bytes.Contains(colour, []byte(ansiRed+"error")) {
		t.Error("coloured text does not colour errors")
	}
	if IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is not a terminal")
	}
}

func TestUnknownFormat(t *testing.T) {
	if err := Write(&bytes.Buffer{}, "xml", &Report{}, Options{}); err == nil || !strings.Contains(err.Error(), "sarif") {
		t.Fatalf("error = %v", err)
	}
}

func BenchmarkSARIF(b *testing.B) {
	content := bytes.Repeat([]byte("    password = call(\"x\")  # 😀 a line of code\n"), 3000)
	r := &Report{Root: "/w", FilesScanned: 1}
	ff := FileFindings{Path: "/w/big.py", Content: content}
	for i := 0; i < len(content); i += 4000 {
		ff.Findings = append(ff.Findings, checks.Finding{Rule: "py-eval", Category: checks.CategoryDangerous, Severity: checks.SeverityError, Start: i, End: i + 8, Message: "m"})
	}
	r.Files = []FileFindings{ff}
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		var buf bytes.Buffer
		if err := WriteSARIF(&buf, r); err != nil {
			b.Fatal(err)
		}
	}
}
