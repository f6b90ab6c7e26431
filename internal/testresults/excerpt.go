package testresults

import (
	"fmt"
	"strings"
)

// excerpt keeps the head and the tail of a text that may grow without
// bound, and counts what it dropped in between.
type excerpt struct {
	headCap, tailCap int
	head, tail       []byte
	dropped          int
}

func newExcerpt(limit int) *excerpt {
	return &excerpt{headCap: limit - limit/2, tailCap: limit / 2}
}

func (e *excerpt) WriteString(s string) {
	if room := e.headCap - len(e.head); room > 0 {
		n := min(room, len(s))
		e.head = append(e.head, s[:n]...)
		s = s[n:]
	}
	if len(s) == 0 {
		return
	}
	e.tail = append(e.tail, s...)
	// Trim in batches so that appending stays amortized O(1).
	if len(e.tail) > 2*e.tailCap {
		drop := len(e.tail) - e.tailCap
		e.dropped += drop
		e.tail = append(e.tail[:0], e.tail[drop:]...)
	}
}

func (e *excerpt) Len() int {
	if e == nil {
		return 0
	}
	return len(e.head) + len(e.tail)
}

func (e *excerpt) String() string {
	if e == nil {
		return ""
	}
	tail, dropped := e.tail, e.dropped
	if len(tail) > e.tailCap {
		dropped += len(tail) - e.tailCap
		tail = tail[len(tail)-e.tailCap:]
	}
	var b strings.Builder
	b.Write(e.head)
	if dropped > 0 {
		fmt.Fprintf(&b, "\n[... %d bytes elided ...]\n", dropped)
	}
	b.Write(tail)
	return b.String()
}
