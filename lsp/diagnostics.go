package lsp

import (
	"bytes"
	"os"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/internal/textpos"
	"github.com/aisbx/aisbx/internal/workspace"
)

// diagState is the diagnostics bookkeeping of one path.
type diagState struct {
	timer     *time.Timer
	gen       uint64 // bumped by every request to publish; older results are dropped
	published bool   // something non-empty is showing in the editor
	last      *checked
}

// checked is the last check of a document, kept for code actions.
type checked struct {
	version  int32
	text     []byte
	idx      *textpos.Index
	findings []checks.Finding
}

func (s *session) state(path string) *diagState {
	d, ok := s.diags[path]
	if !ok {
		d = &diagState{}
		s.diags[path] = d
	}
	return d
}

// publishSoon checks path after the workspace's debounce delay, restarting
// the delay on every call.
func (s *session) publishSoon(path string) {
	delay := s.workspaceFor(path).Config().LSP.Debounce.D()
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.state(path)
	d.gen++
	gen := d.gen
	if d.timer != nil {
		d.timer.Stop()
	}
	d.timer = time.AfterFunc(delay, func() { s.publish(path, gen) })
}

// publishNow checks path at once, in the background.
func (s *session) publishNow(path string) {
	s.mu.Lock()
	d := s.state(path)
	d.gen++
	gen := d.gen
	if d.timer != nil {
		d.timer.Stop()
	}
	s.mu.Unlock()
	go s.publish(path, gen)
}

// republishAll checks every open document again (after a config change).
func (s *session) republishAll() {
	for _, doc := range s.docs.All() {
		s.publishNow(doc.Path)
	}
}

// publish checks the document at path and sends its diagnostics, unless a
// newer request superseded this one meanwhile.
func (s *session) publish(path string, gen uint64) {
	if s.ctx.Err() != nil {
		return
	}
	doc, ok := s.docs.Get(path)
	if !ok {
		return
	}
	ws := s.workspaceFor(path)
	if ws == nil {
		return
	}
	idx := textpos.NewIndex(doc.Text)
	if path == ws.ConfigPath() || path == config.UserPath() {
		var l *config.Loaded
		if path == ws.ConfigPath() {
			l = ws.ValidateConfig(doc.Text)
		} else {
			l = config.LoadLayers(config.Layer{Path: path, Data: doc.Text})
		}
		s.send(path, gen, doc.Version, nil, configDiagnostics(idx, l.Problems, path))
		return
	}
	// The in-process checks publish at once; the user's linters, which can
	// take seconds on a cold cache, are merged in when they finish.
	f := checks.NewFile(ws.Root, path, doc.Text)
	f.OnDisk = !doc.Dirty
	ws.CheckPhased(s.ctx, f, func(res checks.Result) {
		for _, e := range res.Errors {
			s.log.Warn("check failed", "path", path, "check", e.Check, "err", e.Err)
		}
		diags := make([]protocol.Diagnostic, 0, len(res.Findings))
		for i, fd := range res.Findings {
			diags = append(diags, findingDiagnostic(idx, fd, i))
		}
		diags = append(diags, testDiagnostics(ws, path, idx)...)
		diags = append(diags, reviewDiagnostics(ws, path, idx)...)
		s.send(path, gen, doc.Version, &checked{version: doc.Version, text: doc.Text, idx: idx, findings: res.Findings}, diags)
	})
}

// send publishes diagnostics of the check numbered gen, unless a newer
// request superseded it meanwhile.
func (s *session) send(path string, gen uint64, version int32, result *checked, diags []protocol.Diagnostic) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	d, ok := s.diags[path]
	if !ok || d.gen != gen {
		s.mu.Unlock()
		return // superseded, or the document was closed meanwhile
	}
	d.last = result
	d.published = len(diags) > 0
	s.mu.Unlock()
	s.sendDiagnostics(path, version, diags)
}

// sendClosed publishes the diagnostics of a file that is not open in this
// session, and supersedes any check of it still running. A file that had
// none and still has none sends nothing.
func (s *session) sendClosed(path string, diags []protocol.Diagnostic) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	d := s.state(path)
	was := d.published
	d.published = len(diags) > 0
	d.gen++
	s.mu.Unlock()
	if len(diags) > 0 || was {
		s.sendDiagnostics(path, 0, diags)
	}
}

// clear removes a closed document's diagnostics.
func (s *session) clear(path string) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	if d, ok := s.diags[path]; ok {
		if d.timer != nil {
			d.timer.Stop()
		}
		delete(s.diags, path)
	}
	s.mu.Unlock()
	s.sendDiagnostics(path, 0, nil)
}

// sendDiagnostics publishes; diagnostics is never null on the wire, or
// clients would keep the old ones.
func (s *session) sendDiagnostics(path string, version int32, diags []protocol.Diagnostic) {
	if diags == nil {
		diags = []protocol.Diagnostic{}
	}
	s.notify(protocol.MethodTextDocumentPublishDiagnostics, &protocol.PublishDiagnosticsParams{
		URI: pathToURI(path), Version: uint32(max(version, 0)), Diagnostics: diags,
	})
}

// onWorkspaceEvent reacts to shared workspace changes.
func (s *session) onWorkspaceEvent(ws *workspace.Workspace, e workspace.Event) {
	switch e.Kind {
	case workspace.EventConfig:
		s.publishConfigProblems(ws)
		if e.ConfigApplied {
			s.republishAll()
		}
	case workspace.EventTests, workspace.EventFindings, workspace.EventAIEdit:
		for _, path := range e.Files {
			switch _, open := s.docs.Get(path); {
			case open && e.Kind == workspace.EventAIEdit:
				s.publishSoon(path) // ranges move as the user types: keep the debounce
			case open:
				s.publishNow(path)
			default:
				s.publishClosed(ws, path)
			}
		}
		if e.Kind != workspace.EventTests {
			return
		}
		if s.clientCaps().codeLensRefresh {
			if err := s.call(s.ctx, protocol.MethodCodeLensRefresh, nil, nil); err != nil {
				s.log.Debug("codeLens/refresh", "err", err)
			}
		}
		s.notify("aisbx/status", s.status(s.ctx))
	case workspace.EventWatch:
		switch {
		case e.Watch == nil:
		case e.Watch.Degraded:
			s.showMessage(protocol.MessageTypeWarning, "aisbx: "+e.Watch.Reason)
		default: // recovered after a warning
			s.showMessage(protocol.MessageTypeInfo, "aisbx: every directory of "+ws.Root+" is watched again")
		}
	}
}

// publishConfigProblems shows the problems of config files that are not open
// in this session (open ones are checked from their buffer), and clears
// files whose problems are gone.
func (s *session) publishConfigProblems(ws *workspace.Workspace) {
	l := ws.Loaded()
	if l == nil {
		return
	}
	byPath := map[string][]config.Problem{}
	for _, p := range l.Problems {
		byPath[p.Path] = append(byPath[p.Path], p)
	}
	candidates := map[string]bool{}
	for _, layer := range l.Layers {
		candidates[layer.Path] = true
	}
	if p := ws.ConfigPath(); p != "" {
		candidates[p] = true
	}
	for path := range byPath {
		candidates[path] = true
	}
	for path := range candidates {
		if _, open := s.docs.Get(path); open || path == "" {
			continue
		}
		var data []byte
		for _, layer := range l.Layers {
			if layer.Path == path {
				data = layer.Data
			}
		}
		s.sendClosed(path, configDiagnostics(textpos.NewIndex(data), byPath[path], path))
	}
}

// publishClosed shows what aisbx knows of a file that is not open in this
// session: an agent's write checked in the background, failing tests,
// unreviewed AI edits (VS Code lists them in Problems); or clears it.
func (s *session) publishClosed(ws *workspace.Workspace, path string) {
	var diags []protocol.Diagnostic
	var idx *textpos.Index
	if bg, ok := ws.BackgroundFindings(path); ok {
		idx = textpos.NewIndex(bg.Content)
		for i, fd := range bg.Findings {
			d := findingDiagnostic(idx, fd, i)
			d.Data = nil // no code actions without an open buffer to edit
			diags = append(diags, d)
		}
	} else if text, err := os.ReadFile(path); err == nil {
		idx = textpos.NewIndex(text)
	} else {
		idx = textpos.NewIndex(nil)
	}
	diags = append(diags, testDiagnostics(ws, path, idx)...)
	diags = append(diags, reviewDiagnostics(ws, path, idx)...)
	s.sendClosed(path, diags)
}

// testDiagDocURL explains failing-test diagnostics.
const testDiagDocURL = "https://github.com/aisbx/aisbx/blob/main/docs/rules/test-failed.md"

// testDiagnostics are the workspace's failed tests whose failure is in
// path, on the failing line.
func testDiagnostics(ws *workspace.Workspace, path string, idx *textpos.Index) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, f := range ws.FailuresIn(path) {
		line := f.Line - 1
		if line < 0 || line >= idx.LineCount() {
			continue
		}
		start, end := idx.LineStart(line), idx.LineEnd(line)
		text := idx.Text()[start:end]
		start += len(text) - len(bytes.TrimLeft(text, " \t"))
		msg := f.Name + " failed"
		if f.Message != "" {
			msg += ": " + f.Message
		}
		if excerpt := lastLines(f.Output, 12, 1500); excerpt != "" {
			msg += "\n\n" + excerpt
		}
		out = append(out, protocol.Diagnostic{
			Range: protocolRange(idx, start, end), Severity: protocol.DiagnosticSeverityError,
			Code: "test-failed", CodeDescription: &protocol.CodeDescription{Href: uri.URI(testDiagDocURL)},
			Source: "aisbx", Message: msg, Data: map[string]string{"category": "test", "test": f.Name, "run": f.RunID},
		})
	}
	return out
}

// lastLines keeps the last n lines of s, at most max bytes.
func lastLines(s string, n, max int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	out := strings.Join(lines, "\n")
	if len(out) > max {
		out = "…" + out[len(out)-max:]
	}
	return out
}

// findingDiagnostic converts a finding, with byte offsets, into a diagnostic
// in UTF-16 positions. Data carries the finding's index in the last check so
// that code actions find its fixes.
func findingDiagnostic(idx *textpos.Index, f checks.Finding, i int) protocol.Diagnostic {
	d := protocol.Diagnostic{
		Range:    protocolRange(idx, f.Start, f.End),
		Severity: protocol.DiagnosticSeverity(f.Severity),
		Code:     f.Rule,
		Source:   "aisbx",
		Message:  f.Message,
		Data:     diagData{Index: i, Rule: f.Rule, Check: f.Check},
	}
	if f.Tool != "" {
		d.Message = f.Message + " (" + f.Tool + ")"
	}
	if f.DocURL != "" {
		d.CodeDescription = &protocol.CodeDescription{Href: uri.URI(f.DocURL)}
	}
	return d
}

// diagData is the data field of aisbx diagnostics.
type diagData struct {
	Index int    `json:"index"`
	Rule  string `json:"rule"`
	Check string `json:"check,omitempty"`
}

// configDocURL documents every config key.
const configDocURL = "https://github.com/aisbx/aisbx/blob/main/docs/config.md"

// configDiagnostics converts config problems of one file. A problem without
// a line lands on the first line.
func configDiagnostics(idx *textpos.Index, problems []config.Problem, path string) []protocol.Diagnostic {
	out := []protocol.Diagnostic{}
	for _, p := range problems {
		if p.Path != path {
			continue
		}
		line := max(p.Line-1, 0)
		start, end := idx.LineStart(line), idx.LineEnd(line)
		text := idx.Text()[start:end]
		// Narrow to the key on that line when we can find it.
		if p.Leaf != "" && bytes.Contains(text, []byte(p.Leaf)) {
			i := bytes.Index(text, []byte(p.Leaf))
			start, end = start+i, start+i+len(p.Leaf)
		} else if trimmed := bytes.TrimLeft(text, " \t"); len(trimmed) > 0 {
			start += len(text) - len(trimmed)
		}
		code := "config-invalid"
		sev := protocol.DiagnosticSeverityError
		if p.Severity == "warning" {
			code = "config-unknown-key"
			sev = protocol.DiagnosticSeverityWarning
		}
		out = append(out, protocol.Diagnostic{
			Range:           protocolRange(idx, start, end),
			Severity:        sev,
			Code:            code,
			CodeDescription: &protocol.CodeDescription{Href: uri.URI(configDocURL)},
			Source:          "aisbx",
			Message:         p.Message,
		})
	}
	return out
}

func protocolRange(idx *textpos.Index, start, end int) protocol.Range {
	a, b := idx.UTF16(start), idx.UTF16(end)
	return protocol.Range{
		Start: protocol.Position{Line: uint32(a.Line), Character: uint32(a.Col)},
		End:   protocol.Position{Line: uint32(b.Line), Character: uint32(b.Col)},
	}
}
