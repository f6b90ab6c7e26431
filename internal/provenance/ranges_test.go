package provenance

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func parseRanges(t *testing.T, s string) []Range {
	t.Helper()
	var out []Range
	for _, f := range strings.Fields(s) {
		var r Range
		if _, err := fmt.Sscanf(f, "%d-%d", &r.Start, &r.End); err != nil {
			t.Fatalf("bad range %q", f)
		}
		out = append(out, r)
	}
	return out
}

func TestMapRanges(t *testing.T) {
	f, err := os.Open("testdata/maprange.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") || strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		cols := strings.Split(sc.Text(), "|")
		var c LineChange
		if _, err := fmt.Sscanf(strings.TrimSpace(cols[1]), "%d,%d,%d", &c.Start, &c.Deleted, &c.Inserted); err != nil {
			t.Fatalf("bad change in %q", sc.Text())
		}
		in, want := parseRanges(t, cols[0]), parseRanges(t, cols[2])
		if got := MapRanges(in, c); !reflect.DeepEqual(got, want) {
			t.Errorf("MapRanges(%v, %+v) = %v, want %v", in, c, got, want)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no cases")
	}
}

func TestLineChangeFor(t *testing.T) {
	tests := []struct {
		sl, sc, el, ec int
		text           string
		want           LineChange
	}{
		{3, 0, 3, 0, "a\nb\n", LineChange{3, 0, 2}},     // whole lines pasted above line 3
		{3, 0, 5, 0, "", LineChange{3, 2, 0}},           // lines 3 and 4 deleted
		{3, 4, 3, 4, "x", LineChange{3, 1, 1}},          // typing inside line 3
		{3, 4, 4, 2, "", LineChange{3, 2, 1}},           // joining lines 3 and 4
		{3, 9, 3, 9, "\nfoo", LineChange{3, 1, 2}},      // Enter at the end of line 3, then typing
		{0, 0, 0, 0, "", LineChange{0, 1, 1}},           // an empty edit
		{2, 0, 2, 0, "no newline", LineChange{2, 1, 1}}, // text inserted at a line's start
	}
	for _, tt := range tests {
		if got := LineChangeFor(tt.sl, tt.sc, tt.el, tt.ec, tt.text); got != tt.want {
			t.Errorf("LineChangeFor(%d:%d-%d:%d, %q) = %+v, want %+v", tt.sl, tt.sc, tt.el, tt.ec, tt.text, got, tt.want)
		}
	}
}

// TestRangesFromDiffAgainstGit compares RangesFromDiff with git's minimal
// diff on random edits: the same number of inserted lines, and the lines
// not reported as inserted must be an unchanged subsequence of the old text.
func TestRangesFromDiffAgainstGit(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(6))
	words := []string{"a", "b", "c", "d", "e", "func", "return", "}", ""}
	hunk := regexp.MustCompile(`(?m)^@@ -\d+(?:,\d+)? \+\d+(?:,(\d+))? @@`)
	for i := 0; i < 40; i++ {
		var before []string
		for j := rng.Intn(60); j > 0; j-- {
			before = append(before, words[rng.Intn(len(words))])
		}
		after := append([]string(nil), before...)
		for k := rng.Intn(6); k >= 0; k-- {
			pos := 0
			if len(after) > 0 {
				pos = rng.Intn(len(after) + 1)
			}
			switch rng.Intn(3) {
			case 0: // insert a block
				var block []string
				for j := rng.Intn(5) + 1; j > 0; j-- {
					block = append(block, words[rng.Intn(len(words))]+"!")
				}
				after = append(after[:pos], append(block, after[pos:]...)...)
			case 1: // delete some lines
				end := min(len(after), pos+rng.Intn(4))
				after = append(after[:pos], after[end:]...)
			default: // rewrite a line
				if pos < len(after) {
					after[pos] = words[rng.Intn(len(words))] + "?"
				}
			}
		}
		a, b := []byte(joinLines(before)), []byte(joinLines(after))
		got := RangesFromDiff(a, b)

		pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		os.WriteFile(pa, a, 0o644)
		os.WriteFile(pb, b, 0o644)
		out, _ := exec.Command("git", "diff", "--no-index", "--minimal", "-U0", pa, pb).Output()
		wantInserted := 0
		for _, m := range hunk.FindAllSubmatch(out, -1) {
			n := 1
			if len(m[1]) > 0 {
				n, _ = strconv.Atoi(string(m[1]))
			}
			wantInserted += n
		}
		gotInserted := 0
		kept := map[int]bool{}
		for _, r := range got {
			gotInserted += r.Len()
			for l := r.Start; l < r.End; l++ {
				kept[l] = true
			}
		}
		if gotInserted != wantInserted {
			t.Errorf("case %d: %d lines inserted, git says %d\nbefore %q\nafter  %q\ngot %v", i, gotInserted, wantInserted, before, after, got)
			continue
		}
		var rest []string
		for l, s := range after {
			if !kept[l] {
				rest = append(rest, s)
			}
		}
		if !isSubsequence(rest, before) {
			t.Errorf("case %d: lines kept as old are not in the old text: %q", i, rest)
		}
	}
}

func joinLines(ls []string) string {
	var b bytes.Buffer
	for _, l := range ls {
		b.WriteString(l + "\n")
	}
	return b.String()
}

func isSubsequence(sub, seq []string) bool {
	i := 0
	for _, s := range seq {
		if i < len(sub) && sub[i] == s {
			i++
		}
	}
	return i == len(sub)
}
