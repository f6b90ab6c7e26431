package workspace

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/aisbx/aisbx/checks/secrets"
	"github.com/aisbx/aisbx/internal/provenance"
	"github.com/aisbx/aisbx/internal/records"
	"github.com/aisbx/aisbx/internal/runner"
	"github.com/aisbx/aisbx/internal/testresults"
)

// TestState is the last known result of one test in this workspace.
type TestState struct {
	Status   testresults.Status
	Duration time.Duration
	Message  string
	// File and Line locate the failure (workspace-relative, 1-based), when
	// the run reported one inside the workspace.
	File   string
	Line   int
	Output string
	RunID  string
}

// testsState holds every test's last result and the runner.
type testsState struct {
	mu      sync.Mutex
	runner  *runner.Runner
	byKey   map[string]TestState // TestKey(unit, name)
	modules map[string]string    // dir -> Go module path, for TestKey
}

// TestKey identifies a test across runs and discovery: its unit (a Go
// import path, or the workspace-relative file for Python and JS) and the
// name results report it under.
func TestKey(unit, name string) string { return unit + "\x00" + name }

// Runner returns the workspace's test runner, creating it on first use.
func (w *Workspace) Runner() (*runner.Runner, error) {
	w.tests.mu.Lock()
	defer w.tests.mu.Unlock()
	if w.tests.runner != nil {
		return w.tests.runner, nil
	}
	cfg := w.Config()
	dir := cfg.Records.Dir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(w.Root, dir)
	}
	store, err := records.Open(dir, records.Options{
		MaxRecords: cfg.Records.Keep, MaxAge: cfg.Records.MaxAge.D(), Redact: secrets.RedactText,
	})
	if err != nil {
		return nil, err
	}
	w.tests.runner = runner.New(runner.Options{
		Root: w.Root, Records: store, Since: cfg.Tests.Since, Logger: w.log,
		Sandbox:    func(ctx context.Context) (runner.Sandbox, error) { return w.Sandbox(ctx) },
		Provenance: w.provenanceOf,
	})
	return w.tests.runner, nil
}

// RunTests runs tests in the sandbox and shares the outcome with every user
// of the workspace: test states, then an EventTests event.
func (w *Workspace) RunTests(ctx context.Context, req runner.Request, obs runner.Observer) (*runner.Outcome, error) {
	r, err := w.Runner()
	if err != nil {
		return nil, err
	}
	out, err := r.Run(ctx, req, obs)
	if err != nil {
		return nil, err
	}
	files := w.recordResults(out)
	w.publish(Event{Kind: EventTests, Outcome: out, Files: files})
	return out, nil
}

// recordResults updates the test states from a run and returns the
// absolute paths whose failures changed.
func (w *Workspace) recordResults(out *runner.Outcome) []string {
	if out.Summary == nil {
		return nil
	}
	w.tests.mu.Lock()
	defer w.tests.mu.Unlock()
	if w.tests.byKey == nil {
		w.tests.byKey = map[string]TestState{}
	}
	touched := map[string]bool{}
	for _, res := range out.Summary.Results {
		if res.Kind != testresults.KindTest {
			continue
		}
		unit := res.Package
		if unit == "" {
			unit = res.File
		}
		key := TestKey(unit, res.Name)
		if old, ok := w.tests.byKey[key]; ok && old.File != "" {
			touched[filepath.Join(w.Root, old.File)] = true
		}
		st := TestState{Status: res.Status, Duration: res.Duration, Message: res.Message, Output: res.Output, RunID: out.ID}
		if res.Location != nil && !res.Location.External {
			st.File, st.Line = res.Location.File, res.Location.Line
			touched[filepath.Join(w.Root, st.File)] = true
		}
		w.tests.byKey[key] = st
	}
	files := make([]string, 0, len(touched))
	for f := range touched {
		files = append(files, f)
	}
	return files
}

// TestState returns the last result of a test.
func (w *Workspace) TestState(unit, name string) (TestState, bool) {
	w.tests.mu.Lock()
	defer w.tests.mu.Unlock()
	st, ok := w.tests.byKey[TestKey(unit, name)]
	return st, ok
}

// Failure is a failed test that located its failure in a file.
type Failure struct {
	Name string
	TestState
}

// FailuresIn returns the failed tests whose failure is in path (absolute).
func (w *Workspace) FailuresIn(path string) []Failure {
	rel, err := filepath.Rel(w.Root, path)
	if err != nil {
		return nil
	}
	rel = filepath.ToSlash(rel)
	w.tests.mu.Lock()
	defer w.tests.mu.Unlock()
	var out []Failure
	for key, st := range w.tests.byKey {
		if st.File == rel && (st.Status == testresults.StatusFailed) {
			out = append(out, Failure{Name: key[strings.IndexByte(key, 0)+1:], TestState: st})
		}
	}
	return out
}

// TestUnit returns the unit a test file's tests report under: the Go import
// path of its directory, or the file itself for Python and JS.
func (w *Workspace) TestUnit(rel string) string {
	if !strings.HasSuffix(rel, ".go") {
		return rel
	}
	dir := filepath.Dir(filepath.Join(w.Root, rel))
	w.tests.mu.Lock()
	defer w.tests.mu.Unlock()
	if w.tests.modules == nil {
		w.tests.modules = map[string]string{}
	}
	if p, ok := w.tests.modules[dir]; ok {
		return p
	}
	p := goImportPath(w.Root, dir)
	w.tests.modules[dir] = p
	return p
}

// goImportPath derives a directory's import path from the nearest go.mod
// at or above it (within root).
func goImportPath(root, dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if mod := modulePath(filepath.Join(d, "go.mod")); mod != "" {
			rel, _ := filepath.Rel(d, dir)
			if rel == "." {
				return mod
			}
			return mod + "/" + filepath.ToSlash(rel)
		}
		if d == root || filepath.Dir(d) == d {
			return ""
		}
	}
}

func modulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// provenanceOf lists the AI edits of changed files for a run record.
func (w *Workspace) provenanceOf(changed []string) []records.Provenance {
	store, err := w.Provenance()
	if err != nil {
		return nil
	}
	byFile := map[string][]provenance.Edit{}
	for _, e := range w.Committed(w.ctx) {
		byFile[e.File] = append(byFile[e.File], e)
	}
	var out []records.Provenance
	for _, rel := range changed {
		abs := filepath.Join(w.Root, filepath.FromSlash(rel))
		for _, e := range append(store.ByFile(abs), byFile[abs]...) {
			p := records.Provenance{Tool: string(e.Tool), Model: e.Model, Session: e.Session, Prompt: e.Prompt, File: rel}
			for _, r := range e.Ranges {
				p.Ranges = append(p.Ranges, records.Range{StartLine: r.Start + 1, EndLine: r.End})
			}
			out = append(out, p)
		}
	}
	return out
}
