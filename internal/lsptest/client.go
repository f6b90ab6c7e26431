// Package lsptest is a small LSP client for tests: it speaks JSON-RPC over
// any stream (a pipe, the daemon socket, a child process's stdio), answers
// the server's requests, and records notifications so tests can wait for
// diagnostics. It deliberately does not use go.lsp.dev: it checks the wire
// format independently. Start with New and Client.Initialize.
package lsptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/aisbx/aisbx/internal/frame"
)

// RPCError is a JSON-RPC error response.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("rpc error %d: %s", e.Code, e.Message) }

// Message is any JSON-RPC message, as received.
type Message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *RPCError       `json:"error,omitempty"`
}

// Client is a test LSP client.
type Client struct {
	rwc io.ReadWriteCloser
	w   *frame.Writer
	r   *frame.Reader
	seq atomic.Int64

	mu        sync.Mutex
	pending   map[string]chan Message
	notes     []Message
	noteCond  chan struct{} // closed and replaced on every notification
	handlers  map[string]func(json.RawMessage) (any, error)
	closed    chan struct{}
	readErr   error
	unmatched []Message // responses nobody waited for (e.g. to raw writes)
}

// New starts a client on rwc. Close it when done.
func New(rwc io.ReadWriteCloser) *Client {
	c := &Client{
		rwc: rwc, w: frame.NewWriter(rwc), r: frame.NewReader(rwc),
		pending: map[string]chan Message{}, noteCond: make(chan struct{}),
		handlers: map[string]func(json.RawMessage) (any, error){}, closed: make(chan struct{}),
	}
	// Requests a server commonly sends; tests may replace them.
	ok := func(json.RawMessage) (any, error) { return nil, nil }
	c.handlers["window/workDoneProgress/create"] = ok
	c.handlers["workspace/codeLens/refresh"] = ok
	c.handlers["client/registerCapability"] = ok
	c.handlers["workspace/applyEdit"] = func(json.RawMessage) (any, error) { return map[string]bool{"applied": true}, nil }
	go c.readLoop()
	return c
}

// Handle sets the answer to a server-to-client request.
func (c *Client) Handle(method string, h func(params json.RawMessage) (any, error)) {
	c.mu.Lock()
	c.handlers[method] = h
	c.mu.Unlock()
}

// Close closes the transport.
func (c *Client) Close() error { return c.rwc.Close() }

// Done is closed when the server's stream ends.
func (c *Client) Done() <-chan struct{} { return c.closed }

func (c *Client) readLoop() {
	defer close(c.closed)
	for {
		body, _, err := c.r.Read()
		if err != nil {
			c.mu.Lock()
			c.readErr = err
			for _, ch := range c.pending {
				close(ch)
			}
			c.pending = map[string]chan Message{}
			c.mu.Unlock()
			return
		}
		var m Message
		if err := json.Unmarshal(body, &m); err != nil {
			continue
		}
		switch {
		case m.Method != "" && len(m.ID) > 0:
			go c.answer(m)
		case m.Method != "":
			c.mu.Lock()
			c.notes = append(c.notes, m)
			close(c.noteCond)
			c.noteCond = make(chan struct{})
			c.mu.Unlock()
		default:
			key := string(m.ID)
			c.mu.Lock()
			ch, ok := c.pending[key]
			delete(c.pending, key)
			if !ok {
				c.unmatched = append(c.unmatched, m)
				close(c.noteCond)
				c.noteCond = make(chan struct{})
			}
			c.mu.Unlock()
			if ok {
				ch <- m
			}
		}
	}
}

func (c *Client) answer(m Message) {
	c.mu.Lock()
	h, ok := c.handlers[m.Method]
	c.mu.Unlock()
	resp := map[string]any{"jsonrpc": "2.0", "id": m.ID}
	if !ok {
		resp["error"] = RPCError{Code: -32601, Message: "test client does not handle " + m.Method}
	} else if res, err := h(m.Params); err != nil {
		resp["error"] = RPCError{Code: -32603, Message: err.Error()}
	} else {
		resp["result"] = res
	}
	b, _ := json.Marshal(resp)
	_, _ = c.w.Write(b)
}

// Call sends a request with a numeric id and waits for its response. A
// JSON-RPC error comes back as *RPCError.
func (c *Client) Call(ctx context.Context, method string, params any, result any) error {
	return c.CallID(ctx, c.NextID(), method, params, result)
}

// NextID returns a fresh numeric request id.
func (c *Client) NextID() json.RawMessage {
	return json.RawMessage(fmt.Sprint(c.seq.Add(1)))
}

// CallID is Call with a chosen id (a number or a quoted string).
func (c *Client) CallID(ctx context.Context, id json.RawMessage, method string, params any, result any) error {
	ch := make(chan Message, 1)
	c.mu.Lock()
	c.pending[string(id)] = ch
	c.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if err := c.write(msg); err != nil {
		return err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: connection closed: %w", method, c.err())
		}
		if m.Error != nil {
			return m.Error
		}
		if result != nil && len(m.Result) > 0 {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	return c.write(msg)
}

// WriteRaw sends bytes as they are, to test bad input.
func (c *Client) WriteRaw(b []byte) error {
	_, err := c.rwc.Write(b)
	return err
}

// WriteFrame sends body in a well-formed frame, whatever body is.
func (c *Client) WriteFrame(body []byte) error {
	_, err := c.w.Write(body)
	return err
}

func (c *Client) write(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = c.w.Write(b)
	return err
}

func (c *Client) err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.readErr != nil {
		return c.readErr
	}
	return errors.New("closed")
}

// Mark returns a position in the notification log, for WaitNotificationSince.
func (c *Client) Mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.notes)
}

// WaitNotification waits for a notification of method whose params satisfy
// match, looking at every one received since the client started.
func (c *Client) WaitNotification(ctx context.Context, method string, match func(json.RawMessage) bool) (json.RawMessage, error) {
	return c.WaitNotificationSince(ctx, 0, method, match)
}

// WaitNotificationSince is WaitNotification over the notifications received
// after mark.
func (c *Client) WaitNotificationSince(ctx context.Context, mark int, method string, match func(json.RawMessage) bool) (json.RawMessage, error) {
	seen := mark
	for {
		c.mu.Lock()
		notes := c.notes[seen:]
		seen = len(c.notes)
		wait := c.noteCond
		c.mu.Unlock()
		for _, n := range notes {
			if n.Method == method && (match == nil || match(n.Params)) {
				return n.Params, nil
			}
		}
		select {
		case <-wait:
		case <-c.closed:
			return nil, fmt.Errorf("waiting for %s: connection closed: %w", method, c.err())
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for %s: %w", method, ctx.Err())
		}
	}
}

// WaitUnmatched waits for a response to an id the client never sent (an
// answer to raw input), and returns it.
func (c *Client) WaitUnmatched(ctx context.Context, match func(Message) bool) (Message, error) {
	for {
		c.mu.Lock()
		for i, m := range c.unmatched {
			if match(m) {
				c.unmatched = append(c.unmatched[:i], c.unmatched[i+1:]...)
				c.mu.Unlock()
				return m, nil
			}
		}
		wait := c.noteCond
		c.mu.Unlock()
		select {
		case <-wait:
		case <-c.closed:
			return Message{}, fmt.Errorf("connection closed: %w", c.err())
		case <-ctx.Done():
			return Message{}, ctx.Err()
		}
	}
}

// Notifications returns every notification of method received so far.
func (c *Client) Notifications(method string) []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []json.RawMessage
	for _, n := range c.notes {
		if n.Method == method {
			out = append(out, n.Params)
		}
	}
	return out
}
