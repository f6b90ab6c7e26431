package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
)

type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name      string      `xml:"name,attr"`
		Tests     int         `xml:"tests,attr"`
		Failures  int         `xml:"failures,attr"`
		Errors    int         `xml:"errors,attr"`
		TestCases []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Failure   *junitFailure `xml:"failure,omitempty"`
		Error     *junitFailure `xml:"error,omitempty"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// WriteJUnit writes r as JUnit XML: one testsuite per file, one failing
// testcase per finding, and one erroring testcase per check that failed on
// a file. A clean run is one suite with one passing testcase, which CI test
// views show as green rather than empty.
func WriteJUnit(w io.Writer, r *Report) error {
	out := junitSuites{Name: "aisbx", Time: strconv.FormatFloat(r.Duration.Seconds(), 'f', 3, 64)}
	suites := map[string]int{}
	suiteOf := func(rel string) *junitSuite {
		i, ok := suites[rel]
		if !ok {
			i = len(out.Suites)
			suites[rel] = i
			out.Suites = append(out.Suites, junitSuite{Name: rel})
		}
		return &out.Suites[i]
	}
	for _, f := range r.view() {
		s := suiteOf(f.Rel)
		for _, fd := range f.Findings {
			s.Tests++
			s.Failures++
			s.TestCases = append(s.TestCases, junitCase{
				Name:      fmt.Sprintf("%s at %d:%d", fd.Rule, fd.pos.Line, fd.pos.Col),
				Classname: f.Rel,
				Failure: &junitFailure{
					Message: oneLine(fd.Message),
					Type:    fd.Severity.String(),
					Text: fmt.Sprintf("%s:%d:%d: %s: %s [%s]%s", f.Rel, fd.pos.Line, fd.pos.Col, fd.Severity,
						fd.Message, fd.Rule, docSuffix(fd.DocURL)),
				},
			})
		}
	}
	for _, e := range r.Errors {
		rel := r.rel(e.Path)
		s := suiteOf(rel)
		s.Tests++
		s.Errors++
		s.TestCases = append(s.TestCases, junitCase{
			Name: "check " + e.Check, Classname: rel,
			Error: &junitFailure{Message: oneLine(e.Message), Type: "check-error", Text: e.Message},
		})
	}
	if len(out.Suites) == 0 {
		out.Suites = []junitSuite{{Name: "aisbx", Tests: 1, TestCases: []junitCase{{Name: fmt.Sprintf("%d files checked", r.FilesScanned), Classname: "aisbx"}}}}
	}
	for _, s := range out.Suites {
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func docSuffix(url string) string {
	if url == "" {
		return ""
	}
	return "\n" + url
}
