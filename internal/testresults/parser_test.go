package testresults

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .summary.json golden files")

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "fixtures", name+".out"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// parseChunked feeds out to a parser in chunks of size n (0: all at once)
// and returns the summary and the events it sent.
func parseChunked(out []byte, n int, fw Framework) (*Summary, []Event) {
	var events []Event
	p := NewParser(ParseOptions{Framework: fw, Workdir: fixtureWorkdir, TruncationMarker: truncationMarker,
		OnEvent: func(e Event) { events = append(events, e) }})
	if n <= 0 {
		n = len(out)
	}
	for len(out) > 0 {
		k := min(n, len(out))
		p.Write(out[:k])
		out = out[k:]
	}
	return p.Close(), events
}

// TestParseFixtures parses every captured run and compares the summary with
// its golden file; the summary must not depend on how the stream was
// chunked, and the events must agree with the summary.
func TestParseFixtures(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			out := readFixture(t, f.name)
			fw := f.framework
			if f.truncateFrom != "" {
				fw = fixtureByName(t, f.truncateFrom).framework
			}
			s, events := parseChunked(out, 0, fw)
			for _, n := range []int{1, 7, 4096} {
				other, _ := parseChunked(out, n, fw)
				if !reflect.DeepEqual(s, other) {
					t.Fatalf("the summary differs when the stream comes in %d-byte chunks", n)
				}
			}
			checkEvents(t, s, events)
			got, err := json.MarshalIndent(s, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "fixtures", f.name+".summary.json")
			if *update {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(append(got, '\n'), want) {
				t.Errorf("summary differs from %s (run with -update to see the diff in git)", golden)
			}
		})
	}
}

func fixtureByName(t testing.TB, name string) fixture {
	for _, f := range fixtures {
		if f.name == name {
			return f
		}
	}
	t.Fatalf("no fixture %s", name)
	return fixture{}
}

// checkEvents: every start has an end, ends carry the final result, and
// the last progress matches the summary.
func checkEvents(t *testing.T, s *Summary, events []Event) {
	t.Helper()
	started, ended := map[string]int{}, map[string]Result{}
	var last Progress
	for _, e := range events {
		switch e.Kind {
		case EventStart:
			started[e.Result.ID()]++
		case EventEnd:
			if _, dup := ended[e.Result.ID()]; dup && e.Result.Kind == KindTest {
				t.Errorf("%s ended twice", e.Result.Name)
			}
			ended[e.Result.ID()] = *e.Result
		}
		last = e.Progress
	}
	for id := range started {
		if _, ok := ended[id]; !ok {
			// A started entry may be dropped (a node suite); then it is
			// not in the summary either.
			for _, r := range s.Results {
				if r.ID() == id {
					t.Errorf("%q started and never ended", r.Name)
				}
			}
		}
	}
	for _, r := range s.Results {
		e, ok := ended[r.ID()]
		if !ok {
			t.Errorf("%q is in the summary without an end event", r.Name)
			continue
		}
		if e.Status != r.Status {
			t.Errorf("%q: end event says %s, summary %s", r.Name, e.Status, r.Status)
		}
	}
	if last.Passed != s.Passed || last.Failed != s.Failed || last.Skipped != s.Skipped || last.Unknown != s.Unknown {
		t.Errorf("last progress %+v disagrees with the summary %s", last, s)
	}
}

// TestFailureLocations: each failure is placed on the line of the project
// source that carries its marker comment.
func TestFailureLocations(t *testing.T) {
	cases := []struct {
		fixture, result, file, marker string
		kind                          ResultKind
	}{
		{"go_mixed", "TestGreeting", "fails/fails_test.go", "FAILS-HERE TestGreeting", KindTest},
		{"go_mixed", "TestSubtests/fails_too", "fails/fails_test.go", "FAILS-HERE TestSubtests/fails_too", KindTest},
		{"go_mixed", "TestHelper", "fails/fails_test.go", "FAILS-HERE TestHelper", KindTest},
		{"go_mixed", "TestPick", "panicky/panicky.go", "PANICS-HERE TestPick", KindTest},
		{"go_mixed", "example.com/fixture/broken [example.com/fixture/broken.test]", "broken/broken.go", "BUILD-FAILS-HERE", KindBuild},
		{"go_timeout", "TestSlow", "slow/slow_test.go", "time.Sleep(time.Minute)", KindTest},
		{"pytest_mixed", "test_assertion", "tests/test_basics.py", "FAILS-HERE test_assertion", KindTest},
		{"pytest_mixed", "test_parse_port_range", "app/parse.py", "RAISES-HERE", KindTest},
		{"pytest_mixed", "test_setup_error", "tests/test_basics.py", "SETUP-FAILS-HERE", KindTest},
		{"pytest_mixed", "TestGroup::test_param[2]", "tests/test_basics.py", "FAILS-HERE TestGroup::test_param[2]", KindTest},
		{"pytest_mixed", "PortTest::test_wrong", "tests/test_unit.py", "FAILS-HERE PortTest::test_wrong", KindTest},
		{"pytest_mixed", "tests/test_collect_error.py", "tests/test_collect_error.py", "COLLECT-FAILS-HERE", KindLoad},
		{"unittest_mixed", "PortTest::test_wrong", "tests/test_unit.py", "FAILS-HERE PortTest::test_wrong", KindTest},
		{"unittest_mixed", "PortTest::test_subtests", "tests/test_unit.py", "FAILS-HERE PortTest::test_subtests", KindTest},
		{"unittest_mixed", "PortTest::test_raises", "app/parse.py", "RAISES-HERE", KindTest},
		{"node_mixed", "total > is wrong on purpose", "test/price.test.js", "FAILS-HERE total > is wrong on purpose", KindTest},
		{"node_mixed", "total > rejects non-arrays", "src/price.js", "THROWS-HERE", KindTest},
		{"node_mixed", "test/broken.test.js", "test/broken.test.js", "LOAD-FAILS-HERE", KindLoad},
		{"jest_mixed", "cart > is wrong on purpose", "__tests__/cart.test.js", "FAILS-HERE cart > is wrong on purpose", KindTest},
		{"jest_mixed", "cart > rejects non-arrays", "src/cart.js", "THROWS-HERE", KindTest},
		{"jest_mixed", "__tests__/broken.test.js", "__tests__/broken.test.js", "LOAD-FAILS-HERE", KindLoad},
		{"vitest_mixed", "cart > is wrong on purpose", "test/cart.test.js", "FAILS-HERE cart > is wrong on purpose", KindTest},
		{"vitest_mixed", "cart > rejects non-arrays", "src/cart.js", "THROWS-HERE", KindTest},
		{"vitest_mixed", "test/broken.test.js", "test/broken.test.js", "LOAD-FAILS-HERE", KindLoad},
	}
	summaries := map[string]*Summary{}
	for _, c := range cases {
		s := summaries[c.fixture]
		if s == nil {
			s, _ = parseChunked(readFixture(t, c.fixture), 0, "")
			summaries[c.fixture] = s
		}
		r := findResult(s, c.kind, c.result)
		if r == nil {
			t.Errorf("%s: no %s result %q", c.fixture, c.kind, c.result)
			continue
		}
		project := fixtureByName(t, c.fixture).project
		want := markerLine(t, filepath.Join("testdata", "projects", project, c.file), c.marker)
		if r.Status != StatusFailed || r.Location == nil || r.Location.File != c.file || r.Location.Line != want || r.Location.External {
			t.Errorf("%s %q: status %s at %v, want failed at %s:%d", c.fixture, c.result, r.Status, r.Location, c.file, want)
		}
		if r.Message == "" {
			t.Errorf("%s %q: no message", c.fixture, c.result)
		}
	}
}

func findResult(s *Summary, kind ResultKind, name string) *Result {
	for i := range s.Results {
		if s.Results[i].Kind == kind && s.Results[i].Name == name {
			return &s.Results[i]
		}
	}
	return nil
}

// TestStatuses checks the outcome the real tools gave each named test.
func TestStatuses(t *testing.T) {
	cases := []struct {
		fixture, result string
		want            Status
	}{
		{"go_mixed", "TestSkipped", StatusSkipped},
		{"go_mixed", "TestTable/ten_by_five", StatusPassed},
		{"go_mixed", "TestSubtests", StatusFailed},
		{"go_mixed", "TestSubtests/passes", StatusPassed},
		{"go_timeout", "TestQuick", StatusPassed},
		{"pytest_mixed", "test_skipped", StatusSkipped},
		{"pytest_mixed", "test_xfail", StatusSkipped},
		{"pytest_mixed", "TestGroup::test_param[1]", StatusPassed},
		{"unittest_mixed", "PortTest::test_later", StatusSkipped},
		{"unittest_mixed", "PortTest::test_expected", StatusSkipped},
		{"unittest_mixed", "PortTest::test_ok", StatusPassed},
		{"node_mixed", "skipped", StatusSkipped},
		{"node_mixed", "todo", StatusSkipped},
		{"node_mixed", "total > nested > deep pass", StatusPassed},
		{"jest_mixed", "cart > skipped", StatusSkipped},
		{"jest_mixed", "cart > nested > deep pass", StatusPassed},
		{"vitest_mixed", "cart > todo", StatusSkipped},
		{"vitest_mixed", "cart > sums", StatusPassed},
	}
	for _, c := range cases {
		s, _ := parseChunked(readFixture(t, c.fixture), 0, "")
		r := findResult(s, KindTest, c.result)
		if r == nil || r.Status != c.want {
			t.Errorf("%s %q: got %+v, want %s", c.fixture, c.result, r, c.want)
		}
	}
	// node suites are not tests.
	s, _ := parseChunked(readFixture(t, "node_mixed"), 0, "")
	if r := findResult(s, KindTest, "total"); r != nil {
		t.Errorf("the describe block was reported as a test: %+v", r)
	}
}

// TestTruncatedStreams: a stream cut in the middle (head, marker, tail)
// parses without error; what it reports as ended agrees with the full
// stream; tests cut off are unknown, never passed.
func TestTruncatedStreams(t *testing.T) {
	for _, f := range fixtures {
		if f.truncateFrom == "" {
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			cut, _ := parseChunked(readFixture(t, f.name), 0, "")
			full, _ := parseChunked(readFixture(t, f.truncateFrom), 0, "")
			if !cut.Truncated {
				t.Error("the truncation marker was not noticed")
			}
			if cut.Total == 0 || cut.Total > full.Total+1 {
				t.Errorf("%d results from the cut stream, %d from the full one", cut.Total, full.Total)
			}
			byID := map[string]Result{}
			for _, r := range full.Results {
				byID[r.ID()] = r
			}
			unknown := 0
			for _, r := range cut.Results {
				if r.Status == StatusUnknown {
					unknown++
					continue
				}
				if fr, ok := byID[r.ID()]; ok && fr.Status != r.Status {
					t.Errorf("%q: %s in the cut stream, %s in the full one", r.Name, r.Status, fr.Status)
				}
			}
			if lost := full.Total - (cut.Total - unknown); lost <= 0 {
				t.Errorf("the cut lost no result: %d of %d ended", cut.Total-unknown, full.Total)
			}
		})
	}
}

// TestParserBounds: noise lines are counted, an overlong line is dropped
// without growing memory, output excerpts are bounded, a line without a
// final newline still counts, and writes after Close are ignored.
func TestParserBounds(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("plain noise\n{not json\n@aisbx:{broken\n")
	b.WriteString(strings.Repeat("x", 3<<20) + "\n")
	b.WriteString(`{"Action":"run","Package":"p","Test":"TestBig"}` + "\n")
	for range 5000 {
		b.WriteString(`{"Action":"output","Package":"p","Test":"TestBig","Output":"` + strings.Repeat("y", 100) + `\n"}` + "\n")
	}
	b.WriteString(`{"Action":"fail","Package":"p","Test":"TestBig","Elapsed":0.5}`)
	p := NewParser(ParseOptions{MaxOutput: 4096})
	p.Write(b.Bytes())
	s := p.Close()
	if s.Noise != 4 {
		t.Errorf("noise = %d, want 4", s.Noise)
	}
	if s.Failed != 1 || len(s.Results) != 1 {
		t.Fatalf("got %+v", s)
	}
	if n := len(s.Results[0].Output); n > 4096+100 {
		t.Errorf("output excerpt is %d bytes, bound 4096", n)
	}
	if !strings.Contains(s.Results[0].Output, "bytes elided") {
		t.Error("the excerpt does not say it elided output")
	}
	p.Write([]byte(`{"Action":"run","Package":"p","Test":"TestLate"}` + "\n"))
	if again := p.Close(); again.Total != 1 {
		t.Errorf("a write after Close was parsed: %+v", again)
	}
}

// FuzzParser: no input makes the parser panic, whatever the chunking.
func FuzzParser(f *testing.F) {
	for _, fx := range fixtures {
		if b, err := os.ReadFile(filepath.Join("testdata", "fixtures", fx.name+".out")); err == nil {
			f.Add(b[:min(len(b), 2048)], uint8(7))
		}
	}
	f.Add([]byte(`{"Action":"fail","Package":"p"}`+"\n"+`@aisbx:{"e":"end","id":"x","loc":{"file":"","line":-1}}`), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8) {
		p := NewParser(ParseOptions{Workdir: "/w", OnEvent: func(Event) {}})
		n := int(chunk) + 1
		for len(data) > 0 {
			k := min(n, len(data))
			p.Write(data[:k])
			data = data[k:]
		}
		s := p.Close()
		if s.Passed+s.Failed+s.Skipped+s.Unknown != len(s.Results) {
			t.Fatalf("counts %s do not add up to %d results", s, len(s.Results))
		}
	})
}
