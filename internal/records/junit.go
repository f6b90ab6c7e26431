package records

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"
)

// JUnit XML, as Jenkins, GitLab and GitHub test reporters read it:
// testsuites > testsuite (one per Go package or test file) > testcase, with
// failure, error or skipped inside.
type junitSuites struct {
	XMLName   xml.Name     `xml:"testsuites"`
	Name      string       `xml:"name,attr"`
	Tests     int          `xml:"tests,attr"`
	Failures  int          `xml:"failures,attr"`
	Errors    int          `xml:"errors,attr"`
	Skipped   int          `xml:"skipped,attr"`
	Time      string       `xml:"time,attr"`
	Timestamp string       `xml:"timestamp,attr"`
	Suites    []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
}

// WriteJUnit writes the record's tests as JUnit XML. Failed tests become
// <failure> with their message and location; builds and files that did not
// load, and tests a limit interrupted, become <error>. A run that ended
// by a sandbox limit with no failing test to show for it gets a test case
// of its own, so the report does not read as green.
func (r *Record) WriteJUnit(w io.Writer) error {
	doc := junitSuites{
		Name:      "aisbx run " + r.ID,
		Time:      seconds(float64(r.DurationMS)),
		Timestamp: r.Time.UTC().Format("2006-01-02T15:04:05"),
	}
	bySuite := map[string]*junitSuite{}
	var order []string
	suiteOf := func(name string) *junitSuite {
		s := bySuite[name]
		if s == nil {
			s = &junitSuite{Name: name, Timestamp: doc.Timestamp, Properties: r.junitProperties()}
			bySuite[name] = s
			order = append(order, name)
		}
		return s
	}
	var suiteMS = map[string]float64{}
	for _, t := range r.Tests {
		name := t.Package
		if name == "" {
			name = t.File
		}
		if name == "" {
			name = "aisbx"
		}
		s := suiteOf(name)
		c := junitCase{Name: xmlText(t.Name), Classname: xmlText(name), Time: seconds(t.DurationMS)}
		if t.Location != nil {
			c.File, c.Line = t.Location.File, t.Location.Line
		} else if t.File != "" {
			c.File = t.File
		}
		text := xmlText(problemText(t))
		switch {
		case t.Status == "failed" && (t.Kind == "" || t.Kind == "test"):
			c.Failure = &junitProblem{Message: xmlText(t.Message), Type: "failure", Text: text}
			s.Failures++
		case t.Status == "failed":
			c.Error = &junitProblem{Message: xmlText(t.Message), Type: t.Kind, Text: text}
			s.Errors++
		case t.Status == "unknown":
			msg := t.Message
			if r.Reason != "" {
				msg = strings.TrimSpace(msg + " (" + r.Reason + ")")
			}
			c.Error = &junitProblem{Message: xmlText(msg), Type: "interrupted", Text: text}
			s.Errors++
		case t.Status == "skipped":
			c.Skipped = &junitSkipped{Message: xmlText(t.Message)}
			s.Skipped++
		default:
			if t.Output != "" {
				c.SystemOut = xmlText(t.Output)
			}
		}
		s.Tests++
		suiteMS[name] += t.DurationMS
		s.Cases = append(s.Cases, c)
	}
	if r.limitedWithoutFailure() {
		s := suiteOf("aisbx")
		s.Cases = append(s.Cases, junitCase{Name: "sandbox run", Classname: "aisbx", Time: seconds(float64(r.DurationMS)),
			Error: &junitProblem{Message: xmlText(r.Status + ": " + r.Reason), Type: r.Status, Text: xmlText(r.Output)}})
		s.Tests++
		s.Errors++
	}
	sort.Strings(order)
	for _, name := range order {
		s := bySuite[name]
		s.Time = seconds(suiteMS[name])
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
		doc.Suites = append(doc.Suites, *s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("encoding JUnit XML: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// limitedWithoutFailure: the sandbox stopped the run (timeout, oom, ...)
// and no test result shows it.
func (r *Record) limitedWithoutFailure() bool {
	switch r.Status {
	case "", "passed", "failed":
		return false
	}
	for _, t := range r.Tests {
		if t.Status == "failed" || t.Status == "unknown" {
			return false
		}
	}
	return true
}

func (r *Record) junitProperties() []junitProperty {
	props := []junitProperty{{"aisbx.run", r.ID}, {"aisbx.status", r.Status}}
	if r.Image.Digest != "" || r.Image.Ref != "" {
		props = append(props, junitProperty{"aisbx.image", strings.TrimSuffix(r.Image.Ref+"@"+r.Image.Digest, "@")})
	}
	if r.Snapshot.Hash != "" {
		props = append(props, junitProperty{"aisbx.snapshot", r.Snapshot.Hash})
	}
	if r.Selection.Mode != "" {
		props = append(props, junitProperty{"aisbx.selection", r.Selection.Mode})
	}
	for i := range props {
		props[i].Value = xmlText(props[i].Value)
	}
	return props
}

func problemText(t Test) string {
	var b strings.Builder
	if t.Location != nil {
		fmt.Fprintf(&b, "at %s:%d\n", t.Location.File, t.Location.Line)
	}
	if t.Message != "" {
		b.WriteString(t.Message)
		b.WriteByte('\n')
	}
	if t.Output != "" {
		b.WriteByte('\n')
		b.WriteString(t.Output)
	}
	return b.String()
}

func seconds(ms float64) string { return fmt.Sprintf("%.3f", ms/1000) }

// xmlText drops what XML 1.0 cannot hold (control characters, invalid
// UTF-8); encoding/xml escapes the rest.
func xmlText(s string) string {
	ok := true
	for _, c := range s {
		if !xmlChar(c) {
			ok = false
			break
		}
	}
	if ok && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, c := range strings.ToValidUTF8(s, "\uFFFD") {
		if xmlChar(c) {
			b.WriteRune(c)
		} else {
			b.WriteRune('\uFFFD')
		}
	}
	return b.String()
}

func xmlChar(c rune) bool {
	return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF)
}
