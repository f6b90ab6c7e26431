package secrets

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"

	"github.com/aisbx/aisbx/checks"
)

// gitleaksBinary finds the gitleaks CLI (v8.30.1, installed outside the
// module with `GOBIN=... go install github.com/zricethezav/gitleaks/v8@v8.30.1`).
// Without it the comparison is skipped, or fails under CI=true.
func gitleaksBinary(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("gitleaks"); err == nil {
		return p
	}
	var dirs []string
	if d := os.Getenv("GOBIN"); d != "" {
		dirs = append(dirs, d)
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		dirs = append(dirs, filepath.Join(string(trimNL(out)), "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, "gitleaks")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	msg := "gitleaks not found: GOBIN=$(go env GOPATH)/bin go install github.com/zricethezav/gitleaks/v8@v8.30.1"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

type gitleaksFinding struct {
	RuleID    string
	File      string
	StartLine int
}

// runGitleaks scans dir with the gitleaks CLI and its default rules (plus
// dir/.gitleaks.toml when there is one, as gitleaks does by itself).
func runGitleaks(t testing.TB, bin, dir string) []gitleaksFinding {
	t.Helper()
	report := filepath.Join(t.TempDir(), "report.json")
	cmd := exec.Command(bin, "dir", "--no-banner", "--exit-code", "0", "--log-level", "error",
		"--report-format", "json", "--report-path", report, dir)
	cmd.Dir = t.TempDir() // away from any .gitleaksignore
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gitleaks: %v\n%s", err, out)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var fs []gitleaksFinding
	if err := json.Unmarshal(data, &fs); err != nil {
		t.Fatalf("gitleaks report: %v", err)
	}
	for i := range fs {
		if rel, err := filepath.Rel(dir, fs[i].File); err == nil && filepath.IsAbs(fs[i].File) {
			fs[i].File = filepath.ToSlash(rel)
		}
	}
	return fs
}

// score is one tool's result on one planted file.
type score struct{ planted, found, falseAlarms int }

// scoreLines scores findings by line: a finding on a planted line finds it
// (whatever the other tool calls the rule), any other finding is a false
// alarm. Several findings on one planted line count once.
func scoreLines(want []expectation, got map[string][]int) map[string]*score {
	out := map[string]*score{}
	plantedLines := map[string]map[int]bool{}
	for _, e := range want {
		if out[e.path] == nil {
			out[e.path] = &score{}
			plantedLines[e.path] = map[int]bool{}
		}
		if !plantedLines[e.path][e.line] {
			plantedLines[e.path][e.line] = true
			out[e.path].planted++
		}
	}
	for path, lines := range got {
		if out[path] == nil {
			out[path] = &score{}
		}
		found := map[int]bool{}
		for _, l := range lines {
			switch {
			case plantedLines[path][l] && !found[l]:
				found[l] = true
				out[path].found++
			case !plantedLines[path][l]:
				out[path].falseAlarms++
			}
		}
	}
	return out
}

// TestCompareWithGitleaks scores aisbx and gitleaks v8.30.1 on the same
// planted sets with the same expectations: aisbx must find at least as many
// planted secrets in every file, and raise no more false alarms. It prints
// one SCORE line per file for bench/secrets.sh.
func TestCompareWithGitleaks(t *testing.T) {
	bin := gitleaksBinary(t)
	var totOurs, totGL score
	for _, set := range []string{"corpus", "fixes", "gitleaks-workspace", "gitleaks-old-config"} {
		want, err := readExpected(set)
		if err != nil {
			t.Fatal(err)
		}
		root, files := setFiles(t, set)
		c := mustCheck(t, DefaultOptions())
		ours := map[string][]int{}
		for _, e := range findingsAsExpectations(t, root, files, func(f *checks.File) []checks.Finding {
			fs, err := c.Run(context.Background(), f)
			if err != nil {
				t.Fatal(err)
			}
			return fs
		}) {
			ours[e.path] = append(ours[e.path], e.line)
		}
		gl := map[string][]int{}
		for _, f := range runGitleaks(t, bin, root) {
			gl[f.File] = append(gl[f.File], f.StartLine)
		}
		so, sg := scoreLines(want, ours), scoreLines(want, gl)
		var paths []string
		for p := range files {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			o, g := so[p], sg[p]
			if o == nil {
				o = &score{}
			}
			if g == nil {
				g = &score{planted: o.planted}
			}
			fmt.Printf("SCORE %-40s planted=%-3d aisbx_found=%-3d aisbx_false=%-3d gitleaks_found=%-3d gitleaks_false=%d\n",
				set+"/"+p, o.planted, o.found, o.falseAlarms, g.found, g.falseAlarms)
			if o.found < g.found {
				t.Errorf("%s/%s: aisbx found %d planted secrets, gitleaks %d", set, p, o.found, g.found)
			}
			if o.falseAlarms > g.falseAlarms {
				t.Errorf("%s/%s: aisbx raised %d false alarms, gitleaks %d", set, p, o.falseAlarms, g.falseAlarms)
			}
			totOurs.planted += o.planted
			totOurs.found += o.found
			totOurs.falseAlarms += o.falseAlarms
			totGL.found += g.found
			totGL.falseAlarms += g.falseAlarms
		}
	}
	fmt.Printf("SCORE %-40s planted=%-3d aisbx_found=%-3d aisbx_false=%-3d gitleaks_found=%-3d gitleaks_false=%d\n",
		"TOTAL", totOurs.planted, totOurs.found, totOurs.falseAlarms, totGL.found, totGL.falseAlarms)
	if totOurs.found != totOurs.planted {
		t.Errorf("aisbx recall %d/%d", totOurs.found, totOurs.planted)
	}
}
