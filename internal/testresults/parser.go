package testresults

import (
	"bytes"
	"strings"
	"sync"
	"time"
)

// ParseOptions configure a Parser.
type ParseOptions struct {
	// Framework is recorded in the Summary. The parser understands the
	// output of every framework (test2json lines and "@aisbx:" lines), so a
	// combined command's output parses too.
	Framework Framework
	// Workdir is the container's path of the workspace root; failure paths
	// below it come back workspace-relative.
	Workdir string
	// Dir is the workspace-relative directory the command ran in; relative
	// paths in the output (Go compile errors) are relative to it.
	Dir string
	// MaxOutput bounds each result's output excerpt; default 8 KiB.
	MaxOutput int
	// MaxLine bounds one line; the rest of a longer line is dropped.
	// Default 1 MiB.
	MaxLine int
	// ExpectedTotal is the number of tests expected, when the caller knows
	// it (go test announces none); the reporters' own count wins.
	ExpectedTotal int
	// TruncationMarker is text of the line the sandbox puts where it cut
	// the output; seeing it sets Summary.Truncated.
	TruncationMarker string
	// OnEvent is called, in order, as tests start and end. It is called
	// from Write and Close, never concurrently, and without the parser's
	// lock held.
	OnEvent func(Event)
}

// Parser reads a test run's output as it streams and turns it into events
// and a Summary. Feed it with Write (it is an io.Writer) in chunks of any
// size, then call Close. It never fails on bad input: lines it does not
// understand are counted as noise.
type Parser struct {
	mu        sync.Mutex
	opts      ParseOptions
	paths     pathMapper
	marker    []byte
	truncMark []byte

	partial  []byte
	skipping bool // dropping the rest of an overlong line
	pending  []Event

	results  []*Result
	listed   map[*Result]bool
	ended    map[*Result]bool
	progress Progress
	duration time.Duration
	noise    int
	trunc    bool
	closed   bool

	goTests   map[string]*goTest // package + "\x00" + test
	goPkgs    map[string]*goPackage
	goBuilds  map[string]*excerpt // build output by ImportPath
	goBuilt   map[string]bool     // FailedBuild import paths already reported
	protoByID map[string]*Result
}

// NewParser returns a parser.
func NewParser(opts ParseOptions) *Parser {
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = 8 << 10
	}
	if opts.MaxLine <= 0 {
		opts.MaxLine = 1 << 20
	}
	if opts.Dir == "" {
		opts.Dir = "."
	}
	wd := opts.Workdir
	if wd != "" {
		wd = strings.TrimSuffix(wd, "/")
		if wd == "" {
			wd = "/"
		}
	}
	p := &Parser{
		opts:      opts,
		paths:     pathMapper{workdir: wd, dir: opts.Dir},
		marker:    []byte(Marker),
		ended:     map[*Result]bool{},
		listed:    map[*Result]bool{},
		goTests:   map[string]*goTest{},
		goPkgs:    map[string]*goPackage{},
		goBuilds:  map[string]*excerpt{},
		goBuilt:   map[string]bool{},
		protoByID: map[string]*Result{},
	}
	if opts.TruncationMarker != "" {
		p.truncMark = []byte(opts.TruncationMarker)
	}
	p.progress.Total = opts.ExpectedTotal
	return p
}

// Write consumes a chunk of output. It always accepts the whole chunk.
func (p *Parser) Write(b []byte) (int, error) {
	p.mu.Lock()
	n := len(b)
	if !p.closed {
		p.consume(b)
	}
	events := p.takeEvents()
	p.mu.Unlock()
	p.dispatch(events)
	return n, nil
}

// MarkTruncated records that the sandbox cut the output, when it says so
// out of band.
func (p *Parser) MarkTruncated() {
	p.mu.Lock()
	p.trunc = true
	p.mu.Unlock()
}

// Progress returns the counts so far.
func (p *Parser) Progress() Progress {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.progress
}

// Close ends the stream: a last line without newline is parsed, and tests
// that started without ending become StatusUnknown. It returns the
// summary; calling it again returns the same counts.
func (p *Parser) Close() *Summary {
	p.mu.Lock()
	if !p.closed {
		if len(p.partial) > 0 && !p.skipping {
			p.line(p.partial)
		}
		p.partial = nil
		p.closed = true
		for _, r := range p.results {
			if !p.ended[r] {
				r.Status = StatusUnknown
				if r.Message == "" {
					r.Message = "no result: the run ended before this test did"
				}
				p.finish(r)
			}
		}
		p.flushGoOutput()
	}
	s := p.summary()
	events := p.takeEvents()
	p.mu.Unlock()
	p.dispatch(events)
	return s
}

func (p *Parser) consume(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			p.appendPartial(b)
			return
		}
		p.appendPartial(b[:i])
		if !p.skipping {
			p.line(p.partial)
		}
		p.partial = p.partial[:0]
		p.skipping = false
		b = b[i+1:]
	}
}

func (p *Parser) appendPartial(b []byte) {
	if p.skipping {
		return
	}
	if len(p.partial)+len(b) > p.opts.MaxLine {
		p.skipping = true
		p.partial = p.partial[:0]
		p.noise++
		return
	}
	p.partial = append(p.partial, b...)
}

// line handles one complete line of output.
func (p *Parser) line(b []byte) {
	b = bytes.TrimSuffix(b, []byte("\r"))
	if len(b) == 0 {
		return
	}
	if p.truncMark != nil && bytes.Contains(b, p.truncMark) {
		p.trunc = true
		return
	}
	if b[0] == '{' && p.goLine(b) {
		return
	}
	if i := bytes.Index(b, p.marker); i >= 0 && p.protoLine(b[i+len(p.marker):]) {
		return
	}
	p.noise++
}

// start records a test that began running.
func (p *Parser) start(r *Result) {
	r.Status = StatusUnknown
	p.results = append(p.results, r)
	p.listed[r] = true
	p.pending = append(p.pending, Event{Kind: EventStart, Result: cloneResult(r), Progress: p.progress})
}

// finish records a result's end and counts it.
func (p *Parser) finish(r *Result) {
	if p.ended[r] {
		return
	}
	if !p.listed[r] {
		p.results = append(p.results, r)
		p.listed[r] = true
	}
	p.ended[r] = true
	switch r.Status {
	case StatusPassed:
		p.progress.Passed++
	case StatusFailed:
		p.progress.Failed++
	case StatusSkipped:
		p.progress.Skipped++
	default:
		r.Status = StatusUnknown
		p.progress.Unknown++
	}
	p.pending = append(p.pending, Event{Kind: EventEnd, Result: cloneResult(r), Progress: p.progress})
}

// unlist forgets a started result that was not a test.
func (p *Parser) unlist(r *Result) {
	if !p.listed[r] {
		return
	}
	delete(p.listed, r)
	for i, x := range p.results {
		if x == r {
			p.results = append(p.results[:i], p.results[i+1:]...)
			return
		}
	}
}

func (p *Parser) setTotal(n int) {
	if n > 0 {
		p.progress.Total = n
		p.pending = append(p.pending, Event{Kind: EventTotal, Progress: p.progress})
	}
}

func (p *Parser) takeEvents() []Event {
	ev := p.pending
	p.pending = nil
	return ev
}

func (p *Parser) dispatch(events []Event) {
	if p.opts.OnEvent == nil {
		return
	}
	for _, e := range events {
		p.opts.OnEvent(e)
	}
}

func (p *Parser) summary() *Summary {
	s := &Summary{
		Framework: p.opts.Framework,
		Passed:    p.progress.Passed,
		Failed:    p.progress.Failed,
		Skipped:   p.progress.Skipped,
		Unknown:   p.progress.Unknown,
		Total:     len(p.results),
		Duration:  p.duration,
		Truncated: p.trunc,
		Noise:     p.noise,
		Results:   make([]Result, len(p.results)),
	}
	for i, r := range p.results {
		s.Results[i] = *cloneResult(r)
	}
	return s
}

func cloneResult(r *Result) *Result {
	c := *r
	c.Path = append([]string(nil), r.Path...)
	c.Frames = append([]Location(nil), r.Frames...)
	if r.Location != nil {
		l := *r.Location
		c.Location = &l
	}
	return &c
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	const max = 300
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}
