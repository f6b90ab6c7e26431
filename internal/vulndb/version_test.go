package vulndb

import (
	"bufio"
	"cmp"
	"os"
	"strconv"
	"strings"
	"testing"
)

// readCases returns the non-comment, non-blank lines of a testdata file.
func readCases(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("testdata/%s has no cases", name)
	}
	return out
}

// TestPEP440Order checks every pair of the reference ordering: each
// version sorts after all lines before it, and spellings on one line are
// equal.
func TestPEP440Order(t *testing.T) {
	var groups [][]PEP440
	var raw [][]string
	for _, line := range readCases(t, "pep440-order.txt") {
		var g []PEP440
		var r []string
		for _, s := range strings.Split(line, " == ") {
			v, err := ParsePEP440(strings.TrimSpace(s))
			if err != nil {
				t.Fatalf("parse %q: %v", s, err)
			}
			g = append(g, v)
			r = append(r, s)
		}
		groups = append(groups, g)
		raw = append(raw, r)
	}
	for i := range groups {
		for a := range groups[i] {
			for b := range groups[i] {
				if c := groups[i][a].Compare(groups[i][b]); c != 0 {
					t.Errorf("%s vs %s = %d, want equal", raw[i][a], raw[i][b], c)
				}
			}
			for j := range groups {
				want := cmp.Compare(i, j)
				if c := groups[i][a].Compare(groups[j][0]); c != want {
					t.Errorf("%s vs %s = %d, want %d", raw[i][a], raw[j][0], c, want)
				}
			}
		}
	}
}

func TestPEP440Invalid(t *testing.T) {
	for _, s := range readCases(t, "pep440-invalid.txt") {
		if v, err := ParsePEP440(s); err == nil {
			t.Errorf("ParsePEP440(%q) = %+v, want an error", s, v)
		}
	}
}

// TestRanges evaluates the OSV range cases of testdata/ranges.txt.
func TestRanges(t *testing.T) {
	for _, line := range readCases(t, "ranges.txt") {
		f := strings.Fields(line)
		if len(f) < 5 {
			t.Fatalf("bad case %q", line)
		}
		eco, ver, want, wantFixed := f[0], f[1], f[2], f[3]
		var aff Affected
		r := Range{Type: "ECOSYSTEM"}
		if eco != "PyPI" {
			r.Type = "SEMVER"
		}
		for _, ev := range f[4:] {
			k, v, ok := strings.Cut(ev, "=")
			if !ok {
				t.Fatalf("bad event %q in %q", ev, line)
			}
			switch k {
			case "introduced":
				r.Events = append(r.Events, Event{Introduced: v})
			case "fixed":
				r.Events = append(r.Events, Event{Fixed: v})
			case "last_affected":
				r.Events = append(r.Events, Event{LastAffected: v})
			case "limit":
				r.Events = append(r.Events, Event{Limit: v})
			case "versions":
				aff.Versions = append(aff.Versions, v)
			default:
				t.Fatalf("bad event %q in %q", ev, line)
			}
		}
		if len(r.Events) > 0 {
			aff.Ranges = []Range{r}
		}
		got, err := Affects(eco, ver, &aff)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if got.Affected != (want == "affected") {
			t.Errorf("%s: affected = %v", line, got.Affected)
			continue
		}
		if want == "affected" && wantFixed != "-" && got.Fixed != wantFixed {
			t.Errorf("%s: fixed = %q, want %q", line, got.Fixed, wantFixed)
		}
		if want == "affected" && wantFixed == "-" && got.Fixed != "" {
			t.Errorf("%s: fixed = %q, want none", line, got.Fixed)
		}
	}
}

func TestAffectsBadVersion(t *testing.T) {
	aff := &Affected{Ranges: []Range{{Type: "SEMVER", Events: []Event{{Introduced: "0"}}}}}
	for _, c := range [][2]string{{"npm", "not.a.version"}, {"Go", "latest"}, {"PyPI", "french toast"}, {"crates.io", "1.0.0"}} {
		if _, err := Affects(c[0], c[1], aff); err == nil {
			t.Errorf("Affects(%s, %q) gave no error", c[0], c[1])
		}
	}
	// A range whose own bounds do not parse is skipped, not guessed at.
	bad := &Affected{Ranges: []Range{{Type: "SEMVER", Events: []Event{{Introduced: "0"}, {Fixed: "garbage"}}}}}
	if v, err := Affects("npm", "1.0.0", bad); err != nil || v.Affected {
		t.Errorf("unparseable range: %+v, %v; want clean, no error", v, err)
	}
}

func TestCVSS(t *testing.T) {
	for _, line := range readCases(t, "cvss.txt") {
		f := strings.Fields(line)
		want, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		typ := "CVSS_V3"
		sev := SeverityOf(&Advisory{Severity: []SeverityEntry{{Type: typ, Score: f[0]}}}, nil)
		if sev.Score != want || string(sev.Level) != f[2] || sev.Source != typ {
			t.Errorf("%s: got %v %s from %s, want %v %s", f[0], sev.Score, sev.Level, sev.Source, want, f[2])
		}
	}
	// Without a vector, GitHub's label; without either, unknown.
	ds := SeverityOf(&Advisory{DatabaseSpecific: []byte(`{"severity":"MODERATE"}`)}, nil)
	if ds.Level != LevelMedium || ds.Source != "database_specific" {
		t.Errorf("database_specific: %+v", ds)
	}
	if u := SeverityOf(&Advisory{}, nil); u.Level != LevelUnknown {
		t.Errorf("no severity: %+v", u)
	}
}
