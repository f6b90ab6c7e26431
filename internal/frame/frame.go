// Package frame reads and writes LSP base-protocol frames
// ("Content-Length: N\r\n\r\n" + N bytes of JSON) and survives bad input: a
// malformed header or stray bytes between frames are skipped and reported,
// never fatal, so that one broken message does not end an editor session.
//
// Both the LSP face and the daemon's forwarder use it. Standard library only;
// start with Reader.Read.
package frame

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// MaxBody bounds a frame's declared length, so that a corrupt header cannot
// make the reader allocate gigabytes.
const MaxBody = 256 << 20

// maxHeaderLine bounds one header line; longer lines are garbage.
const maxHeaderLine = 8 << 10

// Malformed describes input that was skipped. Read returns it together with
// the next good frame, or alone at EOF.
type Malformed struct {
	Skipped int64  // bytes discarded
	Reason  string // the first problem seen
}

func (m *Malformed) Error() string {
	return fmt.Sprintf("skipped %d bytes of malformed input: %s", m.Skipped, m.Reason)
}

// Reader reads frames from a stream.
type Reader struct {
	r       *bufio.Reader
	pending []byte // a header line read while skipping garbage, to use next
}

// NewReader returns a Reader on r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10)}
}

// Read returns the next frame's body. When it had to skip malformed input
// first, it also returns a *Malformed describing it (body may still be
// valid). At the end of the stream it returns io.EOF (or the transport's
// error), possibly with a *Malformed for trailing garbage via errors.Join.
func (r *Reader) Read() (body []byte, skipped *Malformed, err error) {
	note := func(n int, reason string) {
		if skipped == nil {
			skipped = &Malformed{Reason: reason}
		}
		skipped.Skipped += int64(n)
	}
	for {
		length, n, reason, err := r.readHeader()
		if err != nil {
			if n > 0 {
				note(n, "truncated header at end of stream")
			}
			if skipped != nil {
				return nil, skipped, errors.Join(err, skipped)
			}
			return nil, nil, err
		}
		if reason != "" {
			note(n, reason)
			continue
		}
		body = make([]byte, length)
		if _, err := io.ReadFull(r.r, body); err != nil {
			return nil, skipped, fmt.Errorf("reading %d-byte frame body: %w", length, err)
		}
		return body, skipped, nil
	}
}

// readHeader reads one header block. A non-empty reason means the block was
// malformed and n bytes were consumed and skipped.
func (r *Reader) readHeader() (length int, n int, reason string, err error) {
	length = -1
	sawHeader := false // a well-formed "Name: value" line in this block
	sawGarbage := false
	for {
		var line []byte
		if r.pending != nil {
			line, r.pending = r.pending, nil
		} else {
			var lerr error
			line, lerr = r.readLine()
			if lerr != nil && !errors.Is(lerr, bufio.ErrBufferFull) {
				return 0, n + len(line), "", lerr
			}
			if lerr != nil { // a huge line without newline: garbage
				n += len(line)
				sawGarbage = true
				if reason == "" {
					reason = "header line too long"
				}
				continue
			}
		}
		text := strings.TrimRight(string(line), "\r\n")
		if text == "" {
			if !sawHeader && !sawGarbage {
				n += len(line)
				continue // tolerate blank lines between frames
			}
			n += len(line)
			if reason != "" {
				return 0, n, reason, nil
			}
			if length < 0 {
				return 0, n, "missing Content-Length header", nil
			}
			return length, n, "", nil
		}
		name, value, ok := strings.Cut(text, ":")
		isLength := ok && strings.EqualFold(strings.TrimSpace(name), "Content-Length")
		if isLength && sawGarbage && !sawHeader {
			// Garbage ran into the next frame's header: report the garbage
			// and start the next block at this line.
			r.pending = line
			return 0, n, reason, nil
		}
		n += len(line)
		if !ok || strings.ContainsAny(name, " \t{}\"") {
			sawGarbage = true
			if reason == "" {
				reason = fmt.Sprintf("invalid header line %q", truncate(text, 40))
			}
			continue
		}
		sawHeader = true
		if isLength {
			v, perr := strconv.Atoi(strings.TrimSpace(value))
			switch {
			case perr != nil || v < 0:
				if reason == "" {
					reason = fmt.Sprintf("invalid Content-Length %q", truncate(value, 20))
				}
			case v > MaxBody:
				if reason == "" {
					reason = fmt.Sprintf("Content-Length %d exceeds the %d-byte limit", v, MaxBody)
				}
			default:
				length = v
			}
		}
	}
}

// readLine reads up to and including '\n', bounded by maxHeaderLine.
func (r *Reader) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.r.ReadSlice('\n')
		line = append(line, chunk...)
		if err == nil {
			return line, nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(line) > maxHeaderLine {
				// Discard the rest of this line.
				for errors.Is(err, bufio.ErrBufferFull) {
					chunk, err = r.r.ReadSlice('\n')
					line = append(line[:0], chunk...)
				}
				return line, bufio.ErrBufferFull
			}
			continue
		}
		return line, err
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Writer writes frames; it is safe for concurrent use, and frames never
// interleave.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes body as one frame.
func (w *Writer) Write(body []byte) (int, error) {
	var buf bytes.Buffer
	buf.Grow(len(body) + 32)
	buf.WriteString("Content-Length: ")
	buf.WriteString(strconv.Itoa(len(body)))
	buf.WriteString("\r\n\r\n")
	buf.Write(body)
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.w.Write(buf.Bytes())
	if err != nil {
		return n, fmt.Errorf("writing frame: %w", err)
	}
	return n, nil
}
