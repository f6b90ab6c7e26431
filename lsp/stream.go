package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"

	"github.com/aisbx/aisbx/internal/frame"
)

// stream is a jsonrpc2.Stream that never ends a session because of bad
// input: malformed frames are skipped and logged, and messages that are not
// valid JSON-RPC are answered with an error response where they carry an id.
type stream struct {
	rwc       io.ReadWriteCloser
	r         *frame.Reader
	w         *frame.Writer
	log       *slog.Logger
	malformed atomic.Int64 // how many bad inputs were skipped, for status
}

func newStream(rwc io.ReadWriteCloser, log *slog.Logger) *stream {
	return &stream{rwc: rwc, r: frame.NewReader(rwc), w: frame.NewWriter(rwc), log: log}
}

// Read implements jsonrpc2.Stream. It only returns an error when the
// transport itself fails or ends.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, skipped, err := s.r.Read()
		if skipped != nil {
			s.malformed.Add(1)
			s.log.Warn("skipped malformed input from client", "bytes", skipped.Skipped, "reason", skipped.Reason)
		}
		if err != nil {
			return nil, 0, err
		}
		msg, derr := jsonrpc2.DecodeMessage(body)
		if derr == nil {
			return msg, int64(len(body)), nil
		}
		s.malformed.Add(1)
		s.answerMalformed(ctx, body, derr)
	}
}

// answerMalformed replies to a message jsonrpc2 could not decode: -32700
// for text that is not JSON, -32600 for JSON that is not a valid request.
func (s *stream) answerMalformed(ctx context.Context, body []byte, derr error) {
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
	}
	code, id := jsonrpc2.ParseError, json.RawMessage("null")
	if err := json.Unmarshal(body, &probe); err == nil {
		code = jsonrpc2.InvalidRequest
		if len(probe.ID) > 0 && probe.Method != nil {
			id = probe.ID
		} else if probe.Method == nil {
			// A response we cannot decode: nobody waits for an answer.
			s.log.Warn("dropped malformed response from client", "err", derr)
			return
		} else {
			// A notification: there is nobody to answer.
			s.log.Warn("dropped malformed notification from client", "method", *probe.Method, "err", derr)
			return
		}
	}
	s.log.Warn("answered malformed message", "code", code, "err", derr)
	resp, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": code, "message": fmt.Sprintf("malformed message: %v", derr)},
	})
	if _, err := s.w.Write(resp); err != nil {
		s.log.Warn("writing error response", "err", err)
	}
}

// Write implements jsonrpc2.Stream.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	body, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling %T: %w", msg, err)
	}
	n, err := s.w.Write(body)
	return int64(n), err
}

// Close implements jsonrpc2.Stream.
func (s *stream) Close() error { return s.rwc.Close() }
