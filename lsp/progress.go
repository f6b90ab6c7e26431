package lsp

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"
)

var progressSeq atomic.Int64

// progress reports long work through $/progress. When the client cannot
// show progress, its methods do nothing.
type progress struct {
	s     *session
	token *protocol.ProgressToken
	mu    sync.Mutex
	ended bool
}

// beginProgress starts reporting. token is the request's workDoneToken when
// the client sent one; otherwise a token is created with
// window/workDoneProgress/create, which needs a request goroutine (never the
// read loop). cancel, when non-nil, runs if the user cancels from the UI.
func (s *session) beginProgress(ctx context.Context, token *protocol.ProgressToken, title, message string, cancel context.CancelFunc) *progress {
	p := &progress{s: s, token: token}
	if p.token == nil {
		if !s.clientCaps().workDoneProgress {
			return p
		}
		p.token = protocol.NewProgressToken(fmt.Sprintf("aisbx-%d", progressSeq.Add(1)))
		if err := s.call(ctx, protocol.MethodWorkDoneProgressCreate, &protocol.WorkDoneProgressCreateParams{Token: *p.token}, nil); err != nil {
			s.log.Debug("client refused a progress token", "err", err)
			p.token = nil
			return p
		}
	}
	if cancel != nil {
		s.mu.Lock()
		s.progress[p.token.String()] = cancel
		s.mu.Unlock()
	}
	s.notify(protocol.MethodProgress, &protocol.ProgressParams{Token: *p.token, Value: &protocol.WorkDoneProgressBegin{
		Kind: protocol.WorkDoneProgressKindBegin, Title: title, Message: message, Cancellable: cancel != nil,
	}})
	return p
}

// report updates the message and, when pct is in 0..100, the percentage.
func (p *progress) report(message string, pct int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.token == nil || p.ended {
		return
	}
	v := &protocol.WorkDoneProgressReport{Kind: protocol.WorkDoneProgressKindReport, Message: message}
	if pct >= 0 && pct <= 100 {
		v.Percentage = uint32(pct)
	}
	p.s.notify(protocol.MethodProgress, &protocol.ProgressParams{Token: *p.token, Value: v})
}

// end finishes the progress; later calls do nothing.
func (p *progress) end(message string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.token == nil || p.ended {
		return
	}
	p.ended = true
	p.s.mu.Lock()
	delete(p.s.progress, p.token.String())
	p.s.mu.Unlock()
	p.s.notify(protocol.MethodProgress, &protocol.ProgressParams{Token: *p.token, Value: &protocol.WorkDoneProgressEnd{
		Kind: protocol.WorkDoneProgressKindEnd, Message: message,
	}})
}
