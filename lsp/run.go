package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/aisbx/aisbx/checks/secrets"
	"github.com/aisbx/aisbx/internal/records"
	"github.com/aisbx/aisbx/internal/runner"
	"github.com/aisbx/aisbx/internal/testresults"
	"github.com/aisbx/aisbx/internal/testsel"
	"github.com/aisbx/aisbx/internal/workspace"
	"github.com/aisbx/aisbx/sandbox"
)

// runArgs are the arguments of the run commands (docs/lsp.md).
type runArgs struct {
	URI       protocol.DocumentURI `json:"uri"`
	Since     string               `json:"since"`
	Test      string               `json:"test"`
	Line      *int                 `json:"line"`
	Character *int                 `json:"character"`
	ID        string               `json:"id"`
}

// runTarget resolves a command's workspace and, when the uri names one, the
// file (absolute) it is about.
func (s *session) runTarget(args []json.RawMessage) (runArgs, *workspace.Workspace, string, error) {
	var a runArgs
	if len(args) > 0 {
		if err := decodeArg(args, 0, &a); err != nil {
			return a, nil, "", err
		}
	}
	var path string
	if a.URI != "" {
		p, err := uriToPath(a.URI)
		if err != nil {
			return a, nil, "", jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
		}
		path = p
	}
	var ws *workspace.Workspace
	if path != "" {
		ws = s.workspaceFor(path)
	} else {
		for _, w := range s.workspaces() {
			if w.Root != "" && (ws == nil || w.Root < ws.Root) {
				ws = w
			}
		}
	}
	if ws == nil || ws.Root == "" {
		return a, nil, "", jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no workspace folder to run tests in: open a folder")
	}
	return a, ws, path, nil
}

func cmdRunAffected(ctx context.Context, s *session, params *protocol.ExecuteCommandParams, args []json.RawMessage) (any, error) {
	a, ws, _, err := s.runTarget(args)
	if err != nil {
		return nil, err
	}
	return s.runTests(ctx, params, ws, runner.Request{Mode: testsel.ModeAffected, Since: a.Since})
}

func cmdRunFile(ctx context.Context, s *session, params *protocol.ExecuteCommandParams, args []json.RawMessage) (any, error) {
	_, ws, path, err := s.runTarget(args)
	if err != nil {
		return nil, err
	}
	if path == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "aisbx.runFile needs the uri of a file")
	}
	return s.runTests(ctx, params, ws, runner.Request{Mode: testsel.ModeFile, Files: []string{relTo(ws, path)}})
}

func cmdRunTest(ctx context.Context, s *session, params *protocol.ExecuteCommandParams, args []json.RawMessage) (any, error) {
	a, ws, path, err := s.runTarget(args)
	if err != nil {
		return nil, err
	}
	if path == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "aisbx.runTest needs the uri of a test file")
	}
	tests, content, err := s.discover(ws, path)
	if err != nil {
		return nil, err
	}
	var found *testsel.Test
	switch {
	case a.Test != "":
		for i := range tests {
			if testID(ws, tests[i]) == a.Test {
				found = &tests[i]
			}
		}
	case a.Line != nil:
		col := 0
		if a.Character != nil {
			col = *a.Character
		}
		off, _ := indexOf(content).OffsetUTF16(posOf(*a.Line, col))
		if t, ok := testsel.TestAt(tests, off); ok {
			found = &t
		}
	}
	if found == nil {
		s.showMessage(protocol.MessageTypeInfo, "aisbx: no test here to run")
		return nil, nil
	}
	return s.runTests(ctx, params, ws, runner.Request{Mode: testsel.ModeTest, Tests: []testsel.TestRef{found.Ref()}})
}

// runnerTarget resolves a command's workspace and its test runner.
func (s *session) runnerTarget(args []json.RawMessage) (runArgs, *workspace.Workspace, *runner.Runner, error) {
	a, ws, _, err := s.runTarget(args)
	if err != nil {
		return a, nil, nil, err
	}
	r, err := ws.Runner()
	return a, ws, r, err
}

func cmdRerunFailed(ctx context.Context, s *session, params *protocol.ExecuteCommandParams, args []json.RawMessage) (any, error) {
	_, ws, r, err := s.runnerTarget(args)
	if err != nil {
		return nil, err
	}
	failed := r.FailedTests()
	if len(failed) == 0 {
		s.showMessage(protocol.MessageTypeInfo, "aisbx: the last run had no failed tests to re-run")
		return lastSummary(ws, r), nil
	}
	return s.runTests(ctx, params, ws, runner.Request{Mode: testsel.ModeFailed, Tests: failed})
}

func cmdLastRun(ctx context.Context, s *session, params *protocol.ExecuteCommandParams, args []json.RawMessage) (any, error) {
	_, ws, r, err := s.runnerTarget(args)
	if err != nil {
		return nil, err
	}
	return lastSummary(ws, r), nil
}

func lastSummary(ws *workspace.Workspace, r *runner.Runner) any {
	if out := r.Last(); out != nil {
		return runSummary(ws, out)
	}
	return nil
}

func cmdOpenRunRecord(ctx context.Context, s *session, params *protocol.ExecuteCommandParams, args []json.RawMessage) (any, error) {
	a, ws, r, err := s.runnerTarget(args)
	if err != nil {
		return nil, err
	}
	path := ""
	if a.ID == "" {
		if out := r.Last(); out != nil {
			path = out.RecordPath
		}
	} else {
		dir := ws.Config().Records.Dir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(ws.Root, dir)
		}
		store, err := records.Open(dir, records.Options{})
		if err != nil {
			return nil, err
		}
		rec, err := store.Get(a.ID)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
		}
		path = filepath.Join(dir, rec.ID+".json")
	}
	if path == "" {
		s.showMessage(protocol.MessageTypeInfo, "aisbx: no run recorded yet in "+ws.Root)
		return nil, nil
	}
	if s.clientCaps().showDocument {
		var res protocol.ShowDocumentResult
		if err := s.call(ctx, protocol.MethodShowDocument, &protocol.ShowDocumentParams{URI: uriOf(path), TakeFocus: true}, &res); err != nil {
			s.log.Debug("showDocument failed", "err", err)
		}
	}
	return map[string]string{"path": path}, nil
}

// runTests runs req in ws with progress, streamed notifications, and a
// summary message; the workspace event that follows refreshes every
// session's test diagnostics and lenses.
func (s *session) runTests(ctx context.Context, params *protocol.ExecuteCommandParams, ws *workspace.Workspace, req runner.Request) (any, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req.Overlay = ws.Overlay()
	if req.Trigger == "" {
		req.Trigger = records.TriggerCodeAction
	}
	var prog, build *progress
	var runID string
	out := runner.NewLineRedactor(secrets.RedactText, func(stream string, text []byte) {
		s.notify("aisbx/runOutput", map[string]string{"runId": runID, "stream": stream, "text": string(text)})
	})
	obs := runner.Observer{
		Started: func(st *runner.Started) {
			runID = st.ID
			prog = s.beginProgress(ctx, params.WorkDoneToken, st.Title, st.Selection.Summary(), cancel)
			s.notify("aisbx/runStarted", map[string]any{"runId": st.ID, "title": st.Title, "root": ws.Root,
				"explanation": explanation(st.Selection)})
		},
		Event: func(e testresults.Event) {
			if e.Result == nil || e.Kind == testresults.EventTotal {
				return
			}
			status := string(e.Result.Status)
			if e.Kind == testresults.EventStart {
				status = "started"
			}
			n := testNotification(ws, e.Result)
			n["runId"], n["status"] = runID, status
			s.notify("aisbx/testResult", n)
			if e.Kind == testresults.EventEnd && prog != nil {
				pct := -1
				if e.Progress.Total > 0 {
					pct = e.Progress.Done() * 100 / e.Progress.Total
				}
				prog.report(e.Progress.String(), pct)
			}
		},
		Output: out.Write,
		Building: func(p sandbox.BuildProgress) {
			if build == nil {
				build = s.beginProgress(ctx, nil, "Building the "+p.Profile+" sandbox image (first run in this workspace)", p.Message, cancel)
			}
			pct := -1
			if p.Steps > 0 {
				pct = p.Step * 100 / p.Steps
			}
			build.report(p.Message, pct)
			if p.Done {
				build.end("image ready")
			}
		},
	}
	outcome, err := ws.RunTests(ctx, req, obs)
	out.Flush()
	if build != nil {
		build.end("")
	}
	if err != nil {
		if prog != nil {
			prog.end("could not run: " + err.Error())
		}
		s.showMessage(protocol.MessageTypeError, "aisbx: "+err.Error())
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%v", err)
	}
	msg := outcome.Message()
	if prog != nil {
		prog.end(msg)
	}
	typ := protocol.MessageTypeInfo
	switch outcome.Status {
	case "passed", runner.StatusNoTests:
	case "failed":
		typ = protocol.MessageTypeWarning
	default:
		typ = protocol.MessageTypeError
	}
	s.showMessage(typ, "aisbx: "+msg)
	summary := runSummary(ws, outcome)
	s.notify("aisbx/runFinished", summary)
	return summary, nil
}

func explanation(sel *testsel.Selection) []string { return runner.Explanation(sel) }

// testNotification describes a test result for aisbx/testResult.
func testNotification(ws *workspace.Workspace, r *testresults.Result) map[string]any {
	n := map[string]any{"id": resultID(r), "name": r.Name, "durationMs": r.Duration.Milliseconds()}
	if r.Message != "" {
		n["message"] = r.Message
	}
	if loc := locationOf(ws, r.Location); loc != nil {
		n["location"] = loc
	}
	return n
}

// resultID matches the ids of aisbx/discoverTests for the same test.
func resultID(r *testresults.Result) string {
	unit := r.Package
	if unit == "" {
		unit = r.File
	}
	return unit + ":" + r.Name
}

func locationOf(ws *workspace.Workspace, l *testresults.Location) map[string]any {
	if l == nil || l.External || l.Line < 1 {
		return nil
	}
	abs := filepath.Join(ws.Root, filepath.FromSlash(l.File))
	line := l.Line - 1
	return map[string]any{"uri": uriOf(abs), "range": protocol.Range{
		Start: protocol.Position{Line: uint32(line)}, End: protocol.Position{Line: uint32(line), Character: 1 << 16},
	}}
}

// runSummary is the RunSummary of docs/lsp.md.
func runSummary(ws *workspace.Workspace, out *runner.Outcome) map[string]any {
	sum := map[string]any{
		"id": out.ID, "root": ws.Root, "status": out.Status, "durationMs": out.Duration.Milliseconds(),
		"passed": 0, "failed": 0, "skipped": 0, "total": 0, "tests": []map[string]any{}, "message": out.Message(),
	}
	if out.Reason != "" {
		sum["reason"] = out.Reason
	}
	if out.RecordPath != "" {
		sum["record"] = out.RecordPath
	}
	for _, j := range out.Jobs {
		d := j.Image.Digest
		if d == "" {
			d = j.Image.ID
		}
		sum["image"] = map[string]string{"ref": j.Image.Ref, "digest": d}
		break
	}
	if out.Selection != nil {
		sum["selection"] = map[string]any{"mode": out.Selection.Mode, "explanation": explanation(out.Selection)}
	}
	if s := out.Summary; s != nil {
		sum["passed"], sum["failed"], sum["skipped"], sum["total"] = s.Passed, s.Failed, s.Skipped, s.Total
		tests := make([]map[string]any, 0, len(s.Results))
		for i := range s.Results {
			r := &s.Results[i]
			t := testNotification(ws, r)
			t["status"] = string(r.Status)
			tests = append(tests, t)
		}
		sum["tests"] = tests
	}
	return sum
}

func relTo(ws *workspace.Workspace, path string) string {
	rel, err := filepath.Rel(ws.Root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

func uriOf(path string) protocol.DocumentURI { return pathToURI(path) }

// readDoc returns a file's text: the open buffer, else the disk.
func (s *session) readDoc(path string) ([]byte, error) {
	if doc, ok := s.docs.Get(path); ok {
		return doc.Text, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return b, nil
}
