package sandbox

import (
	"errors"
	"sync"
)

// errOutputLimit stops the copy of a job's output once it produced more
// than the limit.
var errOutputLimit = errors.New("output limit reached")

// capture keeps the head and the tail of a job's output within keep bytes
// and counts the rest, so a flood costs the daemon no more than keep.
type capture struct {
	mu      sync.Mutex
	keep    int
	limit   int64
	head    []byte
	tail    []byte // ring buffer once full
	tailPos int
	total   int64
	emit    func(stream string, p []byte)
}

func newCapture(keep int, limit int64, emit func(string, []byte)) *capture {
	return &capture{keep: keep, limit: limit, emit: emit, head: make([]byte, 0, min(keep/2, 64<<10))}
}

// writer returns an io.Writer for one stream ("stdout" or "stderr").
func (c *capture) writer(stream string) *streamWriter { return &streamWriter{c: c, stream: stream} }

type streamWriter struct {
	c      *capture
	stream string
}

func (w *streamWriter) Write(p []byte) (int, error) {
	c := w.c
	c.mu.Lock()
	over := c.total+int64(len(p)) > c.limit
	if over {
		p = p[:max(0, c.limit-c.total)]
	}
	c.add(p)
	c.mu.Unlock()
	if c.emit != nil && len(p) > 0 {
		c.emit(w.stream, p)
	}
	if over {
		return len(p), errOutputLimit
	}
	return len(p), nil
}

func (c *capture) add(p []byte) {
	c.total += int64(len(p))
	headCap := c.keep / 2
	if n := min(len(p), headCap-len(c.head)); n > 0 {
		c.head = append(c.head, p[:n]...)
		p = p[n:]
	}
	tailCap := c.keep - headCap
	if len(p) == 0 || tailCap == 0 {
		return
	}
	if len(p) >= tailCap {
		c.tail = append(c.tail[:0], p[len(p)-tailCap:]...)
		c.tailPos = 0
		return
	}
	if len(c.tail) < tailCap {
		room := tailCap - len(c.tail)
		if len(p) <= room {
			c.tail = append(c.tail, p...)
			return
		}
		c.tail = append(c.tail, p[:room]...)
		p = p[room:]
	}
	for len(p) > 0 {
		n := copy(c.tail[c.tailPos:], p)
		p = p[n:]
		c.tailPos = (c.tailPos + n) % tailCap
	}
}

// result returns the kept output, whether anything was dropped, and how
// many bytes were.
func (c *capture) result() (out []byte, truncated bool, dropped int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tail := append(append([]byte(nil), c.tail[c.tailPos:]...), c.tail[:c.tailPos]...)
	kept := int64(len(c.head) + len(tail))
	dropped = c.total - kept
	out = append([]byte(nil), c.head...)
	if dropped > 0 {
		out = append(out, []byte("\n[aisbx: "+formatBytes(dropped)+" of output dropped here]\n")...)
	}
	out = append(out, tail...)
	return out, dropped > 0, dropped
}

func (c *capture) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}
