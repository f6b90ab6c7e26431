package lsp

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/aisbx/aisbx/internal/documents"
	"github.com/aisbx/aisbx/internal/workspace"
)

// session is one editor connection. Its documents are its own; its
// workspaces are shared through the Registry.
type session struct {
	id     string
	opts   Options
	log    *slog.Logger
	conn   jsonrpc2.Conn
	stream *stream
	ctx    context.Context // cancelled when the connection ends
	cancel context.CancelFunc
	reg    *workspace.Registry
	docs   *documents.Store

	started time.Time

	mu          sync.Mutex
	initialized bool // initialize answered
	shutdown    bool // shutdown received
	caps        clientCaps
	folders     map[string]*folder // by root; "" is the rootless workspace
	removeInfo  func()
	inflight    map[jsonrpc2.ID]context.CancelFunc
	progress    map[string]context.CancelFunc // work-done tokens the client may cancel
	diags       map[string]*diagState         // by path
	commands    map[string]CommandHandler

	pubMu sync.Mutex // orders publishDiagnostics against staleness checks

	exitOnce sync.Once
	exited   chan struct{}
	code     int
}

// folder is a workspace this session holds.
type folder struct {
	ws          *workspace.Workspace
	unsubscribe func()
}

// dirtyBuffers are this session's unsaved buffers, for sandbox overlays.
func (s *session) dirtyBuffers() map[string][]byte {
	out := map[string][]byte{}
	for _, d := range s.docs.All() {
		if d.Dirty {
			out[d.Path] = d.Text
		}
	}
	return out
}

func (s *session) exitCode() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.code
}

// exit handles the exit notification: 0 when shutdown came first.
func (s *session) exit() {
	s.exitOnce.Do(func() {
		s.mu.Lock()
		if s.shutdown {
			s.code = 0
		} else {
			s.code = 1
		}
		s.mu.Unlock()
		close(s.exited)
	})
}

// close releases everything the session holds.
func (s *session) close() {
	s.cancel()
	s.mu.Lock()
	folders := s.folders
	s.folders = map[string]*folder{}
	for _, d := range s.diags {
		if d.timer != nil {
			d.timer.Stop()
		}
	}
	remove := s.removeInfo
	s.mu.Unlock()
	for _, f := range folders {
		f.unsubscribe()
		s.reg.Release(f.ws, s.id)
	}
	if remove != nil {
		remove()
	}
}

// acquire adds a workspace folder to the session.
func (s *session) acquire(root string) *workspace.Workspace {
	s.mu.Lock()
	if f, ok := s.folders[root]; ok {
		s.mu.Unlock()
		return f.ws
	}
	s.mu.Unlock()
	ws, err := s.reg.Acquire(s.ctx, root, s.id)
	if err != nil {
		s.log.Error("opening workspace", "root", root, "err", err)
		return nil
	}
	f := &folder{ws: ws}
	unsub := ws.Subscribe(func(e workspace.Event) { s.onWorkspaceEvent(ws, e) })
	removeOverlay := ws.AddOverlay(s.dirtyBuffers)
	f.unsubscribe = func() { unsub(); removeOverlay() }
	s.mu.Lock()
	if existing, ok := s.folders[root]; ok {
		s.mu.Unlock()
		f.unsubscribe()
		s.reg.Release(ws, s.id)
		return existing.ws
	}
	s.folders[root] = f
	s.mu.Unlock()
	return ws
}

// release drops a workspace folder from the session.
func (s *session) release(root string) {
	s.mu.Lock()
	f, ok := s.folders[root]
	delete(s.folders, root)
	s.mu.Unlock()
	if ok {
		f.unsubscribe()
		s.reg.Release(f.ws, s.id)
	}
}

// workspaceFor returns the session's workspace with the deepest root that
// contains path, acquiring the rootless workspace for files outside them.
func (s *session) workspaceFor(path string) *workspace.Workspace {
	s.mu.Lock()
	var best *workspace.Workspace
	for root, f := range s.folders {
		if root == "" {
			continue
		}
		if path == root || strings.HasPrefix(path, root+string(filepath.Separator)) {
			if best == nil || len(root) > len(best.Root) {
				best = f.ws
			}
		}
	}
	s.mu.Unlock()
	if best != nil {
		return best
	}
	return s.acquire("")
}

// workspaces returns the workspaces the session holds.
func (s *session) workspaces() []*workspace.Workspace {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*workspace.Workspace, 0, len(s.folders))
	for _, f := range s.folders {
		out = append(out, f.ws)
	}
	return out
}

func (s *session) clientCaps() clientCaps {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// notify sends a notification to the client, logging failures: a client
// that went away is not an error worth more than a line.
func (s *session) notify(method string, params any) {
	if err := s.conn.Notify(s.ctx, method, params); err != nil && s.ctx.Err() == nil {
		s.log.Warn("notifying client", "method", method, "err", err)
	}
}

// call sends a request to the client and waits for the answer. Never call it
// from a synchronous handler: the answer is read by the goroutine that runs
// those.
func (s *session) call(ctx context.Context, method string, params, result any) error {
	_, err := s.conn.Call(ctx, method, params, result)
	return err
}

// showMessage shows a message in the editor.
func (s *session) showMessage(typ protocol.MessageType, msg string) {
	s.notify(protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: typ, Message: msg})
}
