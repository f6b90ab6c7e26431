package runner_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aisbx/aisbx/internal/testfs"

	"github.com/aisbx/aisbx/internal/records"
	"github.com/aisbx/aisbx/internal/runner"
	"github.com/aisbx/aisbx/internal/sbxtest"
	"github.com/aisbx/aisbx/internal/testlog"
	"github.com/aisbx/aisbx/internal/testresults"
	"github.com/aisbx/aisbx/internal/testsel"
	"github.com/aisbx/aisbx/sandbox"
)

// The sample workspaces and their breaks are testsel's: one source of truth
// for what a change should select.
const samples = "../testsel/testdata/workspaces"

type sample struct {
	workspace string
	profile   string
	// failing: result name -> file whose "FAILS-HERE" line fails.
	failing map[string]string
	// notRun are units the break must not select.
	notRun []string
}

var cases = []sample{
	{"gows", "go", map[string]string{"TestPerimeter": "geom/geom_test.go"}, []string{"textutil", "mathx"}},
	{"pyws", "python", map[string]string{"test_mul": "tests/test_ops.py", "LegacyTest::test_mul": "tests/unit/test_legacy.py"}, []string{"tests/test_words.py"}},
	{"jsws", "node", map[string]string{"strings > reverse > reverses ascii": "test/strings.test.js"}, []string{"test/math.test.js"}},
}

// TestAffectedRunsInSandbox: for each language, commit a sample workspace,
// break it, run the affected tests in the real sandbox, and check that the
// selection leaves unrelated units out, that the broken tests fail at their
// marked lines, that progress streamed, and that the record reads back and
// pins the run (image digest, snapshot hash, command).
func TestAffectedRunsInSandbox(t *testing.T) {
	for _, c := range cases {
		t.Run(c.workspace, func(t *testing.T) {
			root := gitWorkspace(t, c.workspace)
			sb := sbxtest.Sandbox(t, root, sandbox.Options{PoolSize: -1}, c.profile)
			store, err := records.Open(records.DefaultDir(root), records.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r := runner.New(runner.Options{Root: root, Records: store, Logger: testlog.New(t),
				Sandbox: func(context.Context) (runner.Sandbox, error) { return sb, nil }})
			testfs.CopyTree(t, filepath.Join(samples, "breaks", c.workspace), root)

			var mu sync.Mutex
			var ended []testresults.Event
			var started *runner.Started
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			out, err := r.Run(ctx, runner.Request{Trigger: records.TriggerCLI}, runner.Observer{
				Started: func(s *runner.Started) { started = s },
				Event: func(e testresults.Event) {
					mu.Lock()
					defer mu.Unlock()
					if e.Kind == testresults.EventEnd {
						ended = append(ended, e)
					}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if out.Status != "failed" || out.ExitCode == 0 {
				t.Fatalf("status %s (exit %d, reason %q); want failed\n%s", out.Status, out.ExitCode, out.Reason, jobOutput(out))
			}
			if started == nil || started.Selection.Mode != testsel.ModeAffected {
				t.Fatalf("no Started event: %+v", started)
			}
			for _, item := range out.Selection.Items() {
				for _, unit := range c.notRun {
					if strings.Contains(item.Unit, unit) {
						t.Errorf("unrelated unit selected: %s", item)
					}
				}
			}
			if len(ended) == 0 || ended[len(ended)-1].Progress.Done() == 0 {
				t.Errorf("no per-test progress streamed")
			}
			failed := map[string]testresults.Result{}
			for _, res := range out.Summary.Results {
				if res.Kind == testresults.KindTest && res.Status == testresults.StatusFailed {
					failed[res.Name] = res
				}
			}
			for name, file := range c.failing {
				res, ok := failed[name]
				if !ok {
					t.Errorf("%s did not fail; failed: %v\n%s", name, keys(failed), jobOutput(out))
					continue
				}
				want := testfs.MarkedLine(t, filepath.Join(root, file), "FAILS-HERE")
				if res.Location == nil || res.Location.File != file || res.Location.Line != want {
					t.Errorf("%s failed at %v, want %s:%d", name, res.Location, file, want)
				}
			}
			if !strings.Contains(out.Message(), "failed") || !strings.Contains(out.Message(), "sandbox "+c.profile+"@sha256:") {
				t.Errorf("message = %q", out.Message())
			}

			rec, err := store.Get(out.ID)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Image.Digest == "" || rec.Snapshot.Hash == "" || len(rec.Command.Argv) == 0 || rec.Status != "failed" ||
				rec.Summary.Failed != len(c.failing) || len(rec.Changed) == 0 || rec.Selection.Mode != "affected" {
				t.Errorf("record lacks what reproduces the run: %+v", rec)
			}
			if !strings.Contains(rec.Reproduce(), rec.Image.Digest) {
				t.Errorf("Reproduce() does not pin the image: %s", rec.Reproduce())
			}

			// Fix the break: the failed tests pass on re-run, and the record
			// of the re-run says so.
			restore(t, c.workspace, root)
			out, err = r.Run(ctx, runner.Request{Mode: testsel.ModeFailed, Tests: r.FailedTests(), Trigger: records.TriggerCodeAction}, runner.Observer{})
			if err != nil {
				t.Fatal(err)
			}
			if out.Status != "passed" || out.Summary.Failed != 0 || out.Summary.Passed == 0 {
				t.Fatalf("re-run after the fix: %s %s\n%s", out.Status, out.Message(), jobOutput(out))
			}
		})
	}
}

// TestNoTestsAffected: a change no test reads runs nothing, and says so.
func TestNoTestsAffected(t *testing.T) {
	root := gitWorkspace(t, "gows")
	sb := sbxtest.Sandbox(t, root, sandbox.Options{PoolSize: -1}, "go")
	r := runner.New(runner.Options{Root: root, Sandbox: func(context.Context) (runner.Sandbox, error) { return sb, nil }})
	os.WriteFile(filepath.Join(root, "README.md"), []byte("docs only\n"), 0o644)
	out, err := r.Run(context.Background(), runner.Request{}, runner.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != runner.StatusNoTests || len(out.Jobs) != 0 || !strings.Contains(out.Message(), "no tests") {
		t.Fatalf("outcome = %s: %s", out.Status, out.Message())
	}
}

// TestExplicitCommandAndLimits: `aisbxd run -- CMD` style runs report the
// sandbox's cause when a limit ends them.
func TestExplicitCommandAndLimits(t *testing.T) {
	root := gitWorkspace(t, "gows")
	sb := sbxtest.Sandbox(t, root, sandbox.Options{PoolSize: -1}, "go")
	r := runner.New(runner.Options{Root: root, Sandbox: func(context.Context) (runner.Sandbox, error) { return sb, nil }})
	ctx := context.Background()
	out, err := r.Run(ctx, runner.Request{Cmd: []string{"go", "test", "-json", "-fullpath", "./mathx"}}, runner.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != "passed" || out.Summary == nil || out.Summary.Passed == 0 {
		t.Fatalf("go test -json in sandbox: %s %+v\n%s", out.Status, out.Summary, jobOutput(out))
	}
	out, err = r.Run(ctx, runner.Request{Cmd: []string{"sh", "-c", "while :; do :; done"}, Profile: "go", Timeout: 2 * time.Second}, runner.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != "timeout" || !strings.Contains(out.Message(), "timeout") {
		t.Fatalf("endless loop: %s: %s", out.Status, out.Message())
	}
}

func jobOutput(out *runner.Outcome) string {
	var b strings.Builder
	for _, j := range out.Jobs {
		b.Write(j.Output)
	}
	return b.String()
}

func keys(m map[string]testresults.Result) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// gitWorkspace copies a sample into a fresh git repository with one commit.
func gitWorkspace(t *testing.T, name string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), name)
	testfs.CopyTree(t, filepath.Join(samples, name), root)
	testfs.GitRepo(t, root)
	return root
}

// restore puts the sample's original files back over the break.
func restore(t *testing.T, name, root string) {
	t.Helper()
	testfs.Git(t, root, "checkout", "-q", "--", ".")
}
