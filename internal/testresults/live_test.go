package testresults

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/aisbx/aisbx/internal/testfs"
	"github.com/aisbx/aisbx/internal/testsel"
)

// liveCase is a sample workspace with a change that breaks tests.
type liveCase struct {
	workspace string
	// failing are the tests the break makes fail: result name -> the
	// workspace file whose "FAILS-HERE" line is the failing assertion.
	failing map[string]string
}

var liveCases = []liveCase{
	{"gows", map[string]string{"TestPerimeter": "geom/geom_test.go"}},
	{"pyws", map[string]string{"test_mul": "tests/test_ops.py", "LegacyTest::test_mul": "tests/unit/test_legacy.py"}},
	{"pyunit", map[string]string{"SquareTest::test_square": "tests/test_area.py"}},
	{"jsws", map[string]string{"strings > reverse > reverses ascii": "test/strings.test.js"}},
}

// TestLiveAffectedRuns is the whole path on the host: copy a sample
// workspace, apply its break (testdata/workspaces/breaks), select the tests
// the change affects, build each plan's command, run the real tool with its
// output streaming into the parser, and check that the broken tests failed
// at their marked lines, that the tests of unselected units did not run,
// and that the events streamed as tests ended.
func TestLiveAffectedRuns(t *testing.T) {
	for _, c := range liveCases {
		t.Run(c.workspace, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "ws")
			testfs.CopyTree(t, filepath.Join(sampleWorkspaces, c.workspace), root, generated...)
			breaks := filepath.Join(sampleWorkspaces, "breaks", c.workspace)
			testfs.CopyTree(t, breaks, root, generated...)
			changed := filesBelow(t, breaks)

			sel, err := testsel.New(root, testsel.Options{}).Select(t.Context(), testsel.Request{Changed: changed})
			if err != nil {
				t.Fatal(err)
			}
			if sel.Empty() {
				t.Fatalf("nothing selected for %v", changed)
			}
			var results []Result
			for _, plan := range sel.Plans {
				s, events := runPlan(t, root, plan)
				checkEvents(t, s, events)
				results = append(results, s.Results...)
				checkRanOnlySelected(t, plan, s)
			}
			failed := map[string]Result{}
			for _, r := range results {
				if r.Status == StatusFailed && r.Kind == KindTest && !strings.Contains(r.Message, "subtest") {
					failed[r.Name] = r
				}
				if r.Status == StatusUnknown {
					t.Errorf("%s has no result", r.Name)
				}
			}
			if len(failed) != len(c.failing) {
				t.Errorf("failed: %v, want %v", keys(failed), c.failing)
			}
			for name, file := range c.failing {
				r, ok := failed[name]
				if !ok {
					t.Errorf("%s did not fail", name)
					continue
				}
				want := markerLine(t, filepath.Join(root, file), "FAILS-HERE")
				if r.Location == nil || r.Location.File != file || r.Location.Line != want {
					t.Errorf("%s failed at %v, want %s:%d", name, r.Location, file, want)
				}
			}
		})
	}
}

// runPlan detects the plan's framework, runs its command on the host with
// the parser as the output's writer, and returns the summary and events.
func runPlan(t *testing.T, root string, plan testsel.Plan) (*Summary, []Event) {
	t.Helper()
	fw, err := Detect(root, plan.Lang, plan.Dir)
	if err != nil {
		t.Fatal(err)
	}
	opts := hostTools(t, root, fw, plan.Dir, CommandOptions{Workdir: root})
	cmd, err := BuildCommand(plan, fw, opts)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var events []Event
	p := NewParser(ParseOptions{Framework: fw, Workdir: root, Dir: plan.Dir, OnEvent: func(e Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}})
	if _, err := runCommand(t, root, cmd, p); err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	s := p.Close()
	if s.Total == 0 {
		t.Fatalf("%s: no results", cmd)
	}
	return s, events
}

// checkRanOnlySelected: every result belongs to a selected unit: a test
// file of the plan, or a Go package whose directory the plan names.
func checkRanOnlySelected(t *testing.T, plan testsel.Plan, s *Summary) {
	t.Helper()
	if plan.All {
		return
	}
	for _, r := range s.Results {
		if plan.Lang == testsel.LangGo {
			ok := false
			for _, u := range plan.Units {
				dir := strings.TrimPrefix(u, "./")
				ok = ok || u == "." || strings.HasSuffix(r.Package, "/"+dir)
			}
			if !ok {
				t.Errorf("%s of package %s ran; selected: %v", r.Name, r.Package, plan.Units)
			}
			continue
		}
		if unit := relTo(r.File, plan.Dir); !contains(plan.Units, unit) {
			t.Errorf("%s of %s ran; selected: %v", r.Name, unit, plan.Units)
		}
	}
}

// TestLiveRerunFailed re-runs the failures of a run by name (the "re-run
// failed tests" action): only they run, and they fail again at the same
// place.
func TestLiveRerunFailed(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ws")
	testfs.CopyTree(t, filepath.Join(sampleWorkspaces, "gows"), root, generated...)
	testfs.CopyTree(t, filepath.Join(sampleWorkspaces, "breaks", "gows"), root, generated...)
	s, _ := runPlan(t, root, testsel.Plan{Lang: testsel.LangGo, Dir: ".", Units: []string{"./geom", "./mathx", "./shapes"}})
	var refs []testsel.TestRef
	for _, r := range s.Failures() {
		refs = append(refs, testsel.TestRef{Package: r.Package, Path: r.Path})
	}
	sel, err := testsel.New(root, testsel.Options{}).Select(t.Context(), testsel.Request{Mode: testsel.ModeFailed, Tests: refs})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := runPlan(t, root, sel.Plans[0])
	if again.Total != len(refs) || again.Failed != len(refs) {
		t.Fatalf("re-run: %s of %d results, want the %d failures only", again, again.Total, len(refs))
	}
	if again.Results[0].Location == nil || *again.Results[0].Location != *s.Failures()[0].Location {
		t.Errorf("re-run failed at %v, first run at %v", again.Results[0].Location, s.Failures()[0].Location)
	}
}

// TestLiveCombined runs two Go modules' plans as one combined command: the
// "dir" announcements keep each part's paths right.
func TestLiveCombined(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ws")
	testfs.CopyTree(t, filepath.Join(sampleWorkspaces, "gows"), root, generated...)
	// Break the nested module too, with a compile error.
	write(t, filepath.Join(root, "tools", "lint", "lint.go"), []byte("package lint\n\nfunc Double(n int) int { return undefinedName }\n"))
	var cmds []Command
	for _, plan := range []testsel.Plan{
		{Lang: testsel.LangGo, Dir: ".", Units: []string{"./mathx"}},
		{Lang: testsel.LangGo, Dir: "tools", Units: []string{"./lint"}},
	} {
		cmd, err := BuildCommand(plan, GoTest, hostTools(t, root, GoTest, plan.Dir, CommandOptions{Workdir: root}))
		if err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	cmd, err := Combine(cmds)
	if err != nil {
		t.Fatal(err)
	}
	p := NewParser(ParseOptions{Framework: GoTest, Workdir: root})
	code, err := runCommand(t, root, cmd, p)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Close()
	if code == 0 {
		t.Error("the combined command exited 0 although a part failed")
	}
	build := s.Failures()
	if len(build) != 1 || build[0].Kind != KindBuild || build[0].Location == nil || build[0].Location.File != "tools/lint/lint.go" || build[0].Location.Line != 3 {
		t.Errorf("build failure: %+v", build)
	}
	if s.Passed == 0 {
		t.Errorf("the first part's tests did not run: %s", s)
	}
}

func filesBelow(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func relTo(p, dir string) string {
	if dir == "." || dir == "" {
		return p
	}
	return strings.TrimPrefix(p, dir+"/")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func keys(m map[string]Result) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestLiveRunThisTest runs one test by the selector discovery gives it
// (the "run this test" action) with each framework: that test runs, with
// its ancestors for Go subtests, and no other.
func TestLiveRunThisTest(t *testing.T) {
	cases := []struct {
		workspace, file, marker string
		want                    []string
	}{
		{"gows", "mathx/mathx_test.go", "Mul(0, 7)", []string{"TestMul", "TestMul/with_zero", "TestMul/with_zero/left"}},
		{"pyws", "tests/test_ops.py", "add(0, 7)", []string{"TestOps::test_add_zero"}},
		{"pyunit", "tests/test_names.py", "ada lovelace", []string{"NamesTest::test_title"}},
		{"jsws", "test/strings.test.js", "reverse('')", []string{"strings > reverse > keeps the empty string"}},
	}
	for _, c := range cases {
		t.Run(c.workspace, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "ws")
			testfs.CopyTree(t, filepath.Join(sampleWorkspaces, c.workspace), root, generated...)
			src, err := os.ReadFile(filepath.Join(root, c.file))
			if err != nil {
				t.Fatal(err)
			}
			tests, err := testsel.Discover(c.file, src)
			if err != nil {
				t.Fatal(err)
			}
			at, ok := testsel.TestAt(tests, strings.Index(string(src), c.marker))
			if !ok {
				t.Fatalf("no test around %q", c.marker)
			}
			ref := at.Ref()
			ref.File = c.file
			sel, err := testsel.New(root, testsel.Options{}).Select(t.Context(), testsel.Request{Mode: testsel.ModeTest, Tests: []testsel.TestRef{ref}})
			if err != nil {
				t.Fatal(err)
			}
			s, _ := runPlan(t, root, sel.Plans[0])
			var ran []string
			for _, r := range s.Results {
				ran = append(ran, r.Name)
				if r.Status != StatusPassed {
					t.Errorf("%s: %s", r.Name, r.Status)
				}
			}
			sort.Strings(ran)
			if strings.Join(ran, "|") != strings.Join(c.want, "|") {
				t.Errorf("ran %q, want %q", ran, c.want)
			}
			if !contains(ran, at.ResultName()) {
				t.Errorf("the discovered test's result name %q is not among the results %q", at.ResultName(), ran)
			}
		})
	}
}
