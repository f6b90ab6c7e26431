package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/internal/records"
	"github.com/aisbx/aisbx/internal/testresults"
	"github.com/aisbx/aisbx/internal/testsel"
)

// runsWorkspace writes two records into a workspace: a green CLI run and
// a failing code-action run built from a real selection and real go test
// output (the testresults fixture).
func runsWorkspace(t *testing.T) (root string, ids []string) {
	t.Helper()
	root = t.TempDir()
	st, err := records.Open(records.DefaultDir(root), records.Options{})
	if err != nil {
		t.Fatal(err)
	}
	green := &records.Record{Time: time.Now().Add(-time.Hour), Trigger: records.TriggerCLI, Status: "passed", Root: root,
		Command: records.Command{Argv: []string{"go", "test", "-json", "-fullpath", "./..."}},
		Summary: records.Summary{Passed: 12, Total: 12}, DurationMS: 900}
	if err := st.Write(t.Context(), green); err != nil {
		t.Fatal(err)
	}
	sel, err := testsel.New("../testsel/testdata/workspaces/gows", testsel.Options{}).Select(t.Context(), testsel.Request{Changed: []string{"geom/geom.go"}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile("../testresults/testdata/fixtures/go_mixed.out")
	if err != nil {
		t.Fatal(err)
	}
	p := testresults.NewParser(testresults.ParseOptions{Workdir: "/tmp/aisbx-fixtures/work"})
	p.Write(out)
	tests, sum := records.FromSummary(p.Close())
	red := &records.Record{Time: time.Now(), Trigger: records.TriggerCodeAction, Status: "failed", ExitCode: 1, Root: root, Workdir: "/work",
		Command:   records.Command{Argv: []string{"go", "test", "-json", "-fullpath", "./geom", "./report", "./shapes"}},
		Image:     records.Image{Ref: "aisbx-go:1a2b3c", Digest: "sha256:" + strings.Repeat("ab", 32)},
		Profile:   "go",
		Snapshot:  records.Snapshot{Hash: "sha256:" + strings.Repeat("cd", 32), Files: 17, Bytes: 4096},
		Changed:   []records.ChangedFile{{Path: "geom/geom.go", SHA256: strings.Repeat("ef", 32)}},
		Selection: records.FromSelection(sel), Tests: tests, Summary: sum, DurationMS: 2100}
	if err := st.Write(t.Context(), red); err != nil {
		t.Fatal(err)
	}
	return root, []string{green.ID, red.ID}
}

func runRuns(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
	code := cmdRuns(context.Background(), env, args)
	return code, stdout.String(), stderr.String()
}

// TestRunsListAndShow drives `aisbxd runs` over real records: the table,
// the filters, the text, JSON and JUnit views of one run, and reading the
// record back is enough to reproduce it (digest, snapshot, command).
func TestRunsListAndShow(t *testing.T) {
	root, ids := runsWorkspace(t)

	code, out, errOut := runRuns(t, "list", "--dir", root)
	if code != ExitOK || !strings.Contains(out, "ID") || strings.Index(out, ids[1]) > strings.Index(out, ids[0]) {
		t.Fatalf("list: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	if !strings.Contains(out, "affected 3/6") || !strings.Contains(out, "6 failed, 6 passed, 1 skipped") {
		t.Errorf("list lacks the selection or the counts:\n%s", out)
	}
	if code, out, _ := runRuns(t, "list", "--dir", root, "--status", "passed", "--json"); code != ExitOK {
		t.Errorf("list --json: exit %d", code)
	} else {
		var rs []records.Record
		if err := json.Unmarshal([]byte(out), &rs); err != nil || len(rs) != 1 || rs[0].ID != ids[0] {
			t.Errorf("list --status passed --json: %v, %d records", err, len(rs))
		}
	}

	code, out, _ = runRuns(t, "show", "last", "--dir", root)
	if code != ExitOK {
		t.Fatalf("show last: exit %d", code)
	}
	for _, want := range []string{
		ids[1], "failed", "example.com/gows/geom: changed (geom/geom.go)",
		"✗ TestGreeting (fails/fails_test.go:7)", "sha256:" + strings.Repeat("ab", 32), "sha256:" + strings.Repeat("cd", 32),
		"aisbxd run --dir " + root + " --profile go -- go test -json -fullpath ./geom ./report ./shapes",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}

	code, out, _ = runRuns(t, "show", "--dir", root, "--json", ids[1][:17])
	var r records.Record
	if code != ExitOK || json.Unmarshal([]byte(out), &r) != nil || r.ID != ids[1] || r.Image.Digest == "" || r.Snapshot.Hash == "" || len(r.Command.Argv) == 0 {
		t.Errorf("show --json by prefix: exit %d, record %+v", code, r)
	}

	code, out, _ = runRuns(t, "show", ids[1], "--dir", root, "--junit")
	if code != ExitOK || xml.Unmarshal([]byte(out), new(struct {
		XMLName xml.Name `xml:"testsuites"`
	})) != nil || !strings.Contains(out, `<failure message="Greeting(ada)`) {
		t.Errorf("show --junit: exit %d:\n%s", code, out)
	}
}

// TestRunsBadInput: usage errors and unknown runs exit 2 with a message.
func TestRunsBadInput(t *testing.T) {
	root, ids := runsWorkspace(t)
	cases := [][]string{
		{"frobnicate"},
		{"show", "--dir", root},
		{"show", "nope", "--dir", root},
		{"show", ids[0][:4], "--dir", root}, // ambiguous: both runs are this year
		{"show", "last", "--dir", root, "--json", "--junit"},
		{"list", "--dir", root, "--limit", "-1"},
		{"list", "extra", "--dir", root},
	}
	for _, args := range cases {
		code, _, errOut := runRuns(t, args...)
		if code != ExitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if code, out, _ := runRuns(t, "list", "--dir", t.TempDir()); code != ExitOK || !strings.Contains(out, "no runs recorded") {
		t.Errorf("empty workspace: exit %d, %q", code, out)
	}
	if code, out, _ := runRuns(t, "--help"); code != ExitOK || !strings.Contains(out, "runs show ID|last") {
		t.Errorf("help: exit %d", code)
	}
	custom := filepath.Join(t.TempDir(), "elsewhere")
	if code, _, _ := runRuns(t, "list", "--dir", root, "--records", custom); code != ExitOK {
		t.Errorf("--records: exit %d", code)
	}
}
