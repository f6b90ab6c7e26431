package records

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/internal/testresults"
)

// recordFromFixture builds a record from a real tool's captured output (the
// testresults fixtures).
func recordFromFixture(t *testing.T, name string) *Record {
	t.Helper()
	out, err := os.ReadFile(filepath.Join("..", "testresults", "testdata", "fixtures", name+".out"))
	if err != nil {
		t.Fatal(err)
	}
	p := testresults.NewParser(testresults.ParseOptions{Workdir: "/tmp/aisbx-fixtures/work"})
	p.Write(out)
	tests, sum := FromSummary(p.Close())
	return &Record{
		ID: NewID(time.Date(2026, 11, 29, 18, 48, 0, 0, time.UTC)), Time: time.Date(2026, 11, 29, 18, 48, 0, 0, time.UTC),
		Status: "failed", Tests: tests, Summary: sum, DurationMS: 2100,
		Image: Image{Ref: "aisbx-go:1a2b", Digest: "sha256:" + strings.Repeat("cd", 32)},
	}
}

type parsedSuites struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Skipped  int `xml:"skipped,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Cases    []struct {
			Name    string `xml:"name,attr"`
			File    string `xml:"file,attr"`
			Line    int    `xml:"line,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
			Skipped *struct{} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// TestJUnit exports records of real runs and checks the XML: it validates
// against the JUnit schema (with xmllint), its counts match the record, and
// each failure carries its message and file:line.
func TestJUnit(t *testing.T) {
	for _, name := range []string{"go_mixed", "go_timeout", "pytest_mixed", "node_mixed", "jest_mixed"} {
		t.Run(name, func(t *testing.T) {
			r := recordFromFixture(t, name)
			var buf bytes.Buffer
			if err := r.WriteJUnit(&buf); err != nil {
				t.Fatal(err)
			}
			validateJUnit(t, buf.Bytes())
			var doc parsedSuites
			if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Tests != len(r.Tests) {
				t.Errorf("tests=%d, record has %d", doc.Tests, len(r.Tests))
			}
			failures, errs, skipped := 0, 0, 0
			for _, tc := range r.Tests {
				switch {
				case tc.Status == "failed" && tc.Kind == "test":
					failures++
				case tc.Status == "failed" || tc.Status == "unknown":
					errs++
				case tc.Status == "skipped":
					skipped++
				}
			}
			if doc.Failures != failures || doc.Errors != errs || doc.Skipped != skipped {
				t.Errorf("failures/errors/skipped = %d/%d/%d, want %d/%d/%d", doc.Failures, doc.Errors, doc.Skipped, failures, errs, skipped)
			}
			located := map[string]*Location{}
			for _, tc := range r.Tests {
				located[tc.Name] = tc.Location
			}
			sum := 0
			for _, s := range doc.Suites {
				sum += s.Tests
				for _, c := range s.Cases {
					if c.Failure == nil {
						continue
					}
					if c.Failure.Message == "" {
						t.Errorf("%s: failure without a message", c.Name)
					}
					if loc := located[c.Name]; loc != nil && (c.File != loc.File || c.Line != loc.Line || !strings.Contains(c.Failure.Text, loc.File)) {
						t.Errorf("%s: failure at %s:%d, the record says %s:%d", c.Name, c.File, c.Line, loc.File, loc.Line)
					}
				}
			}
			if sum != doc.Tests {
				t.Errorf("suites hold %d tests, testsuites says %d", sum, doc.Tests)
			}
		})
	}
}

// TestJUnitLimitHit: a run the sandbox stopped (a timeout) with only
// passing tests on record does not read as green.
func TestJUnitLimitHit(t *testing.T) {
	r := &Record{ID: NewID(time.Now()), Time: time.Now(), Status: "timeout", Reason: "timeout after 2m0s",
		Tests: []Test{{Name: "TestA", Package: "p", Status: "passed", Kind: "test"}}, Output: "bad \x00 byte and \xff"}
	var buf bytes.Buffer
	if err := r.WriteJUnit(&buf); err != nil {
		t.Fatal(err)
	}
	validateJUnit(t, buf.Bytes())
	var doc parsedSuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Errors != 1 || doc.Tests != 2 || !strings.Contains(buf.String(), "timeout after 2m0s") {
		t.Errorf("errors=%d tests=%d:\n%s", doc.Errors, doc.Tests, buf.String())
	}
}

func validateJUnit(t *testing.T, data []byte) {
	t.Helper()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("xmllint is required in CI (apt-get install libxml2-utils)")
		}
		t.Log("xmllint not found: schema validation skipped")
		return
	}
	f := filepath.Join(t.TempDir(), "report.xml")
	if err := os.WriteFile(f, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(xmllint, "--noout", "--schema", "testdata/junit.xsd", f).CombinedOutput()
	if err != nil {
		t.Errorf("the JUnit XML does not validate: %v\n%s", err, out)
	}
}
