package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/aisbx/aisbx/internal/version"
	"github.com/aisbx/aisbx/internal/workspace"
)

// clientCaps are the client capabilities aisbx looks at.
type clientCaps struct {
	workDoneProgress bool
	codeLensRefresh  bool
	showDocument     bool
	applyEdit        bool
	watchedFilesDyn  bool
	codeDescription  bool
	createFiles      bool // workspaceEdit.documentChanges with resourceOperations "create"
}

// initialize answers the initialize request. Params are decoded leniently,
// field by field: the library's strict types reject spec-valid capabilities
// (semanticTokens.requests.range: {}), and one odd field must not refuse a
// client.
func (s *session) initialize(ctx context.Context, reply jsonrpc2.Replier, call *jsonrpc2.Call) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(call.Params(), &raw); err != nil {
		return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initialize params must be an object: %v", err))
	}
	var (
		pid        int
		clientInfo struct{ Name, Version string }
		rootURI    string
		rootPath   string
		folders    []struct{ URI, Name string }
		caps       map[string]any
	)
	decode := func(key string, into any) {
		if v, ok := raw[key]; ok && string(v) != "null" {
			if err := json.Unmarshal(v, into); err != nil {
				s.log.Warn("ignoring malformed initialize field", "field", key, "err", err)
			}
		}
	}
	decode("processId", &pid)
	decode("clientInfo", &clientInfo)
	decode("rootUri", &rootURI)
	decode("rootPath", &rootPath)
	decode("workspaceFolders", &folders)
	decode("capabilities", &caps)

	var roots []string
	for _, f := range folders {
		if p, err := uriToPath(protocol.DocumentURI(f.URI)); err == nil {
			roots = append(roots, p)
		}
	}
	if len(roots) == 0 && rootURI != "" {
		if p, err := uriToPath(protocol.DocumentURI(rootURI)); err == nil {
			roots = append(roots, p)
		}
	}
	if len(roots) == 0 && rootPath != "" {
		roots = append(roots, filepath.Clean(rootPath))
	}

	c := clientCaps{
		workDoneProgress: capBool(caps, "window", "workDoneProgress"),
		codeLensRefresh:  capBool(caps, "workspace", "codeLens", "refreshSupport"),
		showDocument:     capBool(caps, "window", "showDocument", "support"),
		applyEdit:        capBool(caps, "workspace", "applyEdit"),
		watchedFilesDyn:  capBool(caps, "workspace", "didChangeWatchedFiles", "dynamicRegistration"),
		codeDescription:  capBool(caps, "textDocument", "publishDiagnostics", "codeDescriptionSupport"),
		createFiles:      capBool(caps, "workspace", "workspaceEdit", "documentChanges") && capHas(caps, "create", "workspace", "workspaceEdit", "resourceOperations"),
	}
	s.mu.Lock()
	s.caps = c
	s.initialized = true
	s.mu.Unlock()

	info := &workspace.ClientInfo{ID: s.id, Name: clientInfo.Name, Version: clientInfo.Version, PID: pid,
		Connected: s.started, Roots: roots}
	remove := s.reg.AddClient(info)
	s.mu.Lock()
	s.removeInfo = remove
	s.mu.Unlock()
	for _, r := range roots {
		s.acquire(r)
	}
	s.log.Info("initialized", "client", clientInfo.Name, "client_version", clientInfo.Version, "pid", pid, "roots", roots)
	return reply(ctx, s.initializeResult(), nil)
}

// initializeResult advertises aisbx's capabilities. It is built from the
// library's 3.16 types and then extended with 3.17 fields the library does
// not know (positionEncoding).
func (s *session) initializeResult() map[string]any {
	caps := protocol.ServerCapabilities{
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: true,
			Change:    protocol.TextDocumentSyncKindIncremental,
			// Save notifications, without the text: the buffer is already
			// known from the incremental changes, and a large file would
			// cross the wire twice on every save.
			Save: &protocol.SaveOptions{IncludeText: false},
		},
		CodeActionProvider: &protocol.CodeActionOptions{
			CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, protocol.Source, codeActionKindSandbox},
		},
		CodeLensProvider:       &protocol.CodeLensOptions{},
		ExecuteCommandProvider: &protocol.ExecuteCommandOptions{Commands: s.commandNames()},
		Workspace: &protocol.ServerCapabilitiesWorkspace{
			WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{Supported: true, ChangeNotifications: true},
		},
	}
	var m map[string]any
	b, _ := json.Marshal(caps)
	_ = json.Unmarshal(b, &m)
	m["positionEncoding"] = "utf-16" // LSP 3.17; the only encoding 3.16 clients know
	return map[string]any{
		"capabilities": m,
		"serverInfo":   map[string]string{"name": "aisbx", "version": version.String()},
	}
}

func (s *session) commandNames() []string {
	names := make([]string, 0, len(s.commands))
	for n := range s.commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// capAt walks a decoded capabilities object; nil where the path ends early.
func capAt(m map[string]any, path ...string) any {
	var cur any = m
	for _, k := range path {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = obj[k]
	}
	return cur
}

// capBool reports whether a capabilities flag is true.
func capBool(m map[string]any, path ...string) bool {
	b, _ := capAt(m, path...).(bool)
	return b
}

// capHas reports whether a capabilities array holds want.
func capHas(m map[string]any, want string, path ...string) bool {
	list, _ := capAt(m, path...).([]any)
	return slices.Contains(list, any(want))
}

// Initialize is never reached: initialize is answered in handle, leniently.
func (s *session) Initialize(ctx context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "bug: initialize dispatched to the library")
}

// Initialized publishes what aisbx already knows about the workspaces: the
// problems of config files, open or not.
func (s *session) Initialized(ctx context.Context, params *protocol.InitializedParams) error {
	for _, ws := range s.workspaces() {
		s.publishConfigProblems(ws)
	}
	return nil
}

// Shutdown and Exit are answered in handle; these satisfy protocol.Server.
func (s *session) Shutdown(ctx context.Context) error { return nil }
func (s *session) Exit(ctx context.Context) error     { s.exit(); return nil }

// SetTrace and LogTrace: aisbx logs to its own file; the trace level is
// accepted and ignored.
func (s *session) SetTrace(ctx context.Context, params *protocol.SetTraceParams) error { return nil }
func (s *session) LogTrace(ctx context.Context, params *protocol.LogTraceParams) error { return nil }

// DidChangeWorkspaceFolders acquires added folders and releases removed ones.
func (s *session) DidChangeWorkspaceFolders(ctx context.Context, params *protocol.DidChangeWorkspaceFoldersParams) error {
	for _, f := range params.Event.Removed {
		if p, err := uriToPath(protocol.DocumentURI(f.URI)); err == nil {
			s.release(p)
		}
	}
	for _, f := range params.Event.Added {
		if p, err := uriToPath(protocol.DocumentURI(f.URI)); err == nil {
			if ws := s.acquire(p); ws != nil {
				s.publishConfigProblems(ws)
			}
		}
	}
	var roots []string
	for _, ws := range s.workspaces() {
		if ws.Root != "" {
			roots = append(roots, ws.Root)
		}
	}
	sort.Strings(roots)
	s.reg.UpdateClient(s.id, func(c *workspace.ClientInfo) { c.Roots = roots })
	s.republishAll()
	return nil
}

// DidChangeConfiguration: aisbx reads aisbx.toml, not editor settings.
func (s *session) DidChangeConfiguration(ctx context.Context, params *protocol.DidChangeConfigurationParams) error {
	return nil
}

// DidChangeWatchedFiles reloads config when aisbx.toml changed on disk
// outside the editor.
func (s *session) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	for _, ch := range params.Changes {
		p, err := uriToPath(ch.URI)
		if err != nil {
			continue
		}
		for _, ws := range s.workspaces() {
			if p == ws.ConfigPath() {
				ws.ReloadConfig()
			}
		}
	}
	return nil
}

// WorkDoneProgressCancel cancels the work behind a progress token.
func (s *session) WorkDoneProgressCancel(ctx context.Context, params *protocol.WorkDoneProgressCancelParams) error {
	key := fmt.Sprint(params.Token)
	s.mu.Lock()
	cancel, ok := s.progress[key]
	s.mu.Unlock()
	if ok {
		cancel()
	}
	return nil
}
