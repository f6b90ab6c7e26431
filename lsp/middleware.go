package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// handle is the session's jsonrpc2 handler. jsonrpc2 calls it on its read
// goroutine, one message at a time, and ends the connection if it returns an
// error, so it always returns nil.
//
// Notifications and the lifecycle requests run here, in order. Other
// requests run on their own goroutine, so that $/cancelRequest and text
// changes keep flowing while a long request (a sandbox run) works.
func (s *session) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	reply = s.guardReply(reply, req)
	defer s.recoverPanic(ctx, reply, req)

	req = withObjectParams(req)
	method := req.Method()
	call, isCall := req.(*jsonrpc2.Call)

	switch method {
	case "$/cancelRequest":
		s.cancelRequest(req.Params())
		return nil
	case protocol.MethodExit:
		s.exit()
		return nil
	}
	if isCall && strings.HasPrefix(method, "aisbx/") {
		s.async(ctx, reply, call, s.control)
		return nil
	}
	if !isCall && (method == protocol.MethodInitialize || method == protocol.MethodShutdown) {
		// Requests sent without an id: nobody waits for an answer, and
		// they must not change the session's state.
		s.log.Warn("ignored a lifecycle request sent as a notification (no id)", "method", method)
		return nil
	}
	if err := s.gate(method); err != nil {
		if isCall {
			return s.ignoreWriteErr(reply(ctx, nil, err))
		}
		return nil
	}
	switch method {
	case protocol.MethodInitialize:
		return s.ignoreWriteErr(s.initialize(ctx, reply, call))
	case protocol.MethodTextDocumentDidChange:
		s.didChange(req.Params())
		return nil
	case protocol.MethodShutdown:
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		s.log.Info("shutdown requested")
		return s.ignoreWriteErr(reply(ctx, nil, nil))
	}
	if !knownMethods[method] {
		if isCall {
			return s.ignoreWriteErr(reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", method)))
		}
		s.log.Debug("ignored unknown notification", "method", method)
		return nil
	}
	dispatch := protocol.ServerHandler(s, nil)
	if isCall {
		s.async(ctx, reply, call, func(ctx context.Context, reply jsonrpc2.Replier, c *jsonrpc2.Call) error {
			return dispatch(ctx, reply, c)
		})
		return nil
	}
	return s.ignoreWriteErr(dispatch(ctx, reply, req))
}

// ignoreWriteErr logs a failed reply instead of ending the connection: if
// the transport is gone, the read side notices on its own.
func (s *session) ignoreWriteErr(err error) error {
	if err != nil && s.ctx.Err() == nil {
		s.log.Warn("replying to client", "err", err)
	}
	return nil
}

// gate enforces the lifecycle: nothing but initialize before initialize,
// nothing after shutdown.
func (s *session) gate(method string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.shutdown:
		return jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "server is shutting down: %s refused", method)
	case !s.initialized && method != protocol.MethodInitialize:
		return jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "server not initialized: %s refused", method)
	case s.initialized && method == protocol.MethodInitialize:
		return jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "initialize was already called")
	}
	return nil
}

// async runs a request on its own goroutine with a context that
// $/cancelRequest and the end of the connection cancel.
func (s *session) async(ctx context.Context, reply jsonrpc2.Replier, call *jsonrpc2.Call,
	h func(context.Context, jsonrpc2.Replier, *jsonrpc2.Call) error) {
	rctx, cancel := context.WithCancel(s.ctx)
	id := call.ID()
	s.mu.Lock()
	s.inflight[id] = cancel
	s.mu.Unlock()
	go func() {
		defer func() {
			s.mu.Lock()
			delete(s.inflight, id)
			s.mu.Unlock()
			cancel()
		}()
		defer s.recoverPanic(rctx, reply, call)
		wrapped := func(ctx context.Context, result any, err error) error {
			if err != nil && rctx.Err() != nil && s.ctx.Err() == nil {
				err = protocol.ErrRequestCancelled
			}
			return reply(ctx, result, err)
		}
		_ = s.ignoreWriteErr(h(rctx, wrapped, call))
	}()
}

// cancelRequest handles $/cancelRequest. jsonrpc2's own cancel handler
// ignores numeric ids (JSON numbers decode as float64 there), so ids are
// decoded here as either a number or a string.
func (s *session) cancelRequest(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil || len(p.ID) == 0 {
		s.log.Warn("malformed $/cancelRequest", "params", string(params))
		return
	}
	var id jsonrpc2.ID
	var n json.Number
	var str string
	switch {
	case json.Unmarshal(p.ID, &str) == nil:
		id = jsonrpc2.NewStringID(str)
	case json.Unmarshal(p.ID, &n) == nil:
		v, err := n.Int64()
		if err != nil || v != int64(int32(v)) {
			s.log.Warn("$/cancelRequest id out of range", "id", string(p.ID))
			return
		}
		id = jsonrpc2.NewNumberID(int32(v))
	default:
		s.log.Warn("$/cancelRequest with an id that is neither number nor string", "id", string(p.ID))
		return
	}
	s.mu.Lock()
	cancel, ok := s.inflight[id]
	s.mu.Unlock()
	if ok {
		s.log.Debug("request cancelled by client", "id", fmt.Sprint(id))
		cancel()
	}
}

// guardReply makes every reply well-formed: exactly one per request, and
// errors with a JSON-RPC code (plain Go errors would go out with code 0).
func (s *session) guardReply(reply jsonrpc2.Replier, req jsonrpc2.Request) jsonrpc2.Replier {
	var replied atomic.Bool
	return func(ctx context.Context, result any, err error) error {
		if !replied.CompareAndSwap(false, true) {
			s.log.Error("broken invariant: second reply to a request", "method", req.Method())
			return nil
		}
		if err != nil {
			err = rpcError(err)
		}
		return reply(ctx, result, err)
	}
}

// rpcError gives err a JSON-RPC code. The library reports undecodable params
// as a parse error (-32700), which means invalid JSON; the JSON was fine, so
// those become invalid params (-32602).
func rpcError(err error) *jsonrpc2.Error {
	if errors.Is(err, context.Canceled) {
		return jsonrpc2.NewError(protocol.CodeRequestCancelled, "request cancelled")
	}
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		code := e.Code
		switch code {
		case 0:
			code = jsonrpc2.InternalError
		case jsonrpc2.ParseError:
			code = jsonrpc2.InvalidParams
		}
		return jsonrpc2.NewError(code, err.Error())
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
}

// recoverPanic turns a panic in a handler into a logged bug and, for a
// request, an internal-error reply: one bad message must not end the
// session (jsonrpc2 has no recover of its own).
func (s *session) recoverPanic(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) {
	p := recover()
	if p == nil {
		return
	}
	s.log.Error("bug: panic in handler", "method", req.Method(), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	if _, ok := req.(*jsonrpc2.Call); ok {
		_ = reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error handling %s: %v", req.Method(), p))
	}
}

// withObjectParams gives requests without params (or with null) an empty
// object, so the library's decoder does not answer them with a parse error.
func withObjectParams(req jsonrpc2.Request) jsonrpc2.Request {
	p := strings.TrimSpace(string(req.Params()))
	if p != "" && p != "null" {
		return req
	}
	switch r := req.(type) {
	case *jsonrpc2.Call:
		if r.Method() == protocol.MethodShutdown {
			return req
		}
		if c, err := jsonrpc2.NewCall(r.ID(), r.Method(), json.RawMessage("{}")); err == nil {
			return c
		}
	case *jsonrpc2.Notification:
		if r.Method() == protocol.MethodExit {
			return req
		}
		if n, err := jsonrpc2.NewNotification(r.Method(), json.RawMessage("{}")); err == nil {
			return n
		}
	}
	return req
}

// knownMethods are the methods protocol.ServerHandler dispatches. Anything
// else would reach Server.Request after a params decode that fails on empty
// params, so it is answered here instead.
var knownMethods = map[string]bool{}

func init() {
	for _, m := range []string{
		protocol.MethodInitialized, protocol.MethodWorkDoneProgressCancel, protocol.MethodLogTrace,
		protocol.MethodSetTrace, protocol.MethodTextDocumentCodeAction, protocol.MethodTextDocumentCodeLens,
		protocol.MethodCodeLensResolve, protocol.MethodTextDocumentColorPresentation, protocol.MethodTextDocumentCompletion,
		protocol.MethodCompletionItemResolve, protocol.MethodTextDocumentDeclaration, protocol.MethodTextDocumentDefinition,
		protocol.MethodTextDocumentDidChange, protocol.MethodWorkspaceDidChangeConfiguration,
		protocol.MethodWorkspaceDidChangeWatchedFiles, protocol.MethodWorkspaceDidChangeWorkspaceFolders,
		protocol.MethodTextDocumentDidClose, protocol.MethodTextDocumentDidOpen, protocol.MethodTextDocumentDidSave,
		protocol.MethodTextDocumentDocumentColor, protocol.MethodTextDocumentDocumentHighlight,
		protocol.MethodTextDocumentDocumentLink, protocol.MethodDocumentLinkResolve, protocol.MethodTextDocumentDocumentSymbol,
		protocol.MethodWorkspaceExecuteCommand, protocol.MethodTextDocumentFoldingRange, protocol.MethodTextDocumentFormatting,
		protocol.MethodTextDocumentHover, protocol.MethodTextDocumentImplementation, protocol.MethodTextDocumentOnTypeFormatting,
		protocol.MethodTextDocumentPrepareRename, protocol.MethodTextDocumentRangeFormatting,
		protocol.MethodTextDocumentReferences, protocol.MethodTextDocumentRename, protocol.MethodTextDocumentSignatureHelp,
		protocol.MethodWorkspaceSymbol, protocol.MethodTextDocumentTypeDefinition, protocol.MethodTextDocumentWillSave,
		protocol.MethodTextDocumentWillSaveWaitUntil, protocol.MethodWillCreateFiles, protocol.MethodDidCreateFiles,
		protocol.MethodWillRenameFiles, protocol.MethodDidRenameFiles, protocol.MethodWillDeleteFiles,
		protocol.MethodDidDeleteFiles, protocol.MethodTextDocumentPrepareCallHierarchy,
		protocol.MethodCallHierarchyIncomingCalls, protocol.MethodCallHierarchyOutgoingCalls,
		protocol.MethodSemanticTokensFull, protocol.MethodSemanticTokensFullDelta, protocol.MethodSemanticTokensRange,
		protocol.MethodLinkedEditingRange, protocol.MethodMoniker,
	} {
		knownMethods[m] = true
	}
}
