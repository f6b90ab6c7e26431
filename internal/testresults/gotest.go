package testresults

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// goEvent is a test2json event (go doc test2json), with the build events
// `go test -json` adds.
type goEvent struct {
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	ImportPath  string
	FailedBuild string
}

type goTest struct {
	res      *Result
	out      *excerpt
	located  bool // an assertion line gave the location
	panic    goPanic
	failedIn bool // a subtest failed
}

type goPackage struct {
	running []*goTest // tests started and not ended, in start order
	out     *excerpt
	failed  bool // one of its tests failed
	panic   goPanic
}

// goPanic follows a panic in a test's or package's output: its message,
// and the goroutine dump's frames that are in the workspace.
type goPanic struct {
	msg    string // the "panic: ..." line, once seen
	active bool
	loc    *Location // the first workspace frame: where it panicked (or, for a timeout, where the test was)
	frames []Location
}

// line reads one output line; it reports whether the line belonged to a
// panic.
func (g *goPanic) line(p *Parser, line string) bool {
	if strings.HasPrefix(line, "panic: ") {
		if g.msg == "" {
			g.msg = goPanicSuffix.ReplaceAllString(line, "")
		}
		g.active = true
		return true
	}
	if !g.active {
		return false
	}
	if loc, ok := p.goFrame(line); ok {
		if len(g.frames) < maxFrames {
			g.frames = append(g.frames, loc)
		}
		if g.loc == nil {
			l := loc
			g.loc = &l
		}
	}
	return true
}

var (
	// "    file_test.go:12: message", as t.Error and friends print it;
	// with -fullpath the file is absolute.
	goAssertLine = regexp.MustCompile(`^\s+(\S+\.go):(\d+): ?(.*)$`)
	// "\t/abs/file.go:12 +0x1d", a frame of a goroutine dump.
	goFrameLine = regexp.MustCompile(`^\t(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)
	// "pkg/file.go:4:9: undefined: x", a compiler or vet error.
	goCompileLine = regexp.MustCompile(`^(\S+\.go):(\d+):(\d+): (.*)$`)
	goPanicSuffix = regexp.MustCompile(` \[recovered.*\]$`)
)

const maxFrames = 10

// goLine handles a test2json line; false when the line is not one.
func (p *Parser) goLine(b []byte) bool {
	var ev goEvent
	if !decodeGoEvent(b, &ev) {
		ev = goEvent{}
		if err := json.Unmarshal(b, &ev); err != nil {
			return false
		}
	}
	if ev.Action == "" {
		return false
	}
	switch ev.Action {
	case "build-output":
		e := p.goBuilds[ev.ImportPath]
		if e == nil {
			e = newExcerpt(p.opts.MaxOutput)
			p.goBuilds[ev.ImportPath] = e
		}
		e.WriteString(ev.Output)
	case "build-fail":
	case "start":
		p.goPackage(ev.Package)
	case "run":
		if ev.Test != "" {
			p.goRun(ev)
		}
	case "output":
		if ev.Test != "" {
			p.goOutput(p.goTest(ev), ev.Output)
		} else {
			p.goPackageOutput(p.goPackage(ev.Package), ev.Output)
		}
	case "pass", "fail", "skip":
		if ev.Test != "" {
			p.goEnd(p.goTest(ev), ev)
		} else {
			p.goPackageEnd(ev)
		}
	}
	return true
}

func (p *Parser) goPackage(pkg string) *goPackage {
	gp := p.goPkgs[pkg]
	if gp == nil {
		gp = &goPackage{out: newExcerpt(p.opts.MaxOutput)}
		p.goPkgs[pkg] = gp
	}
	return gp
}

func (p *Parser) goRun(ev goEvent) *goTest {
	key := ev.Package + "\x00" + ev.Test
	if t := p.goTests[key]; t != nil {
		return t
	}
	t := &goTest{
		res: &Result{Kind: KindTest, Name: ev.Test, Path: strings.Split(ev.Test, "/"), Package: ev.Package},
		out: newExcerpt(p.opts.MaxOutput),
	}
	p.goTests[key] = t
	gp := p.goPackage(ev.Package)
	gp.running = append(gp.running, t)
	p.start(t.res)
	return t
}

// goTest finds the test an event is about; output of a test whose run
// event was lost (a truncated stream) starts it.
func (p *Parser) goTest(ev goEvent) *goTest {
	if t := p.goTests[ev.Package+"\x00"+ev.Test]; t != nil {
		return t
	}
	return p.goRun(ev)
}

func (p *Parser) goOutput(t *goTest, out string) {
	t.out.WriteString(out)
	line := strings.TrimRight(out, "\n")
	if strings.HasPrefix(line, "=== ") || strings.HasPrefix(line, "--- ") || t.panic.line(p, line) || t.located {
		return
	}
	if m := goAssertLine.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[2])
		l := p.paths.location(m[1], n, 0)
		t.res.Location = &l
		t.res.Message = m[3]
		t.located = true
	}
}

// goFailure fills a failed test's message and location: a panic's win over
// an earlier assertion's.
func goFailure(r *Result, t *goTest, gp *goPackage) {
	for _, g := range []*goPanic{&t.panic, &gp.panic} {
		if g.msg == "" {
			continue
		}
		r.Message = g.msg
		if g.loc != nil {
			l := *g.loc
			r.Location = &l
			r.Frames = append([]Location(nil), g.frames...)
		}
		return
	}
}

// goFrame parses a goroutine dump's file line when it is in the workspace.
func (p *Parser) goFrame(line string) (Location, bool) {
	m := goFrameLine.FindStringSubmatch(line)
	if m == nil || strings.HasSuffix(m[1], "_testmain.go") {
		return Location{}, false
	}
	n, _ := strconv.Atoi(m[2])
	loc := p.paths.location(m[1], n, 0)
	return loc, !loc.External
}

func (p *Parser) goEnd(t *goTest, ev goEvent) {
	r := t.res
	if p.ended[r] {
		return
	}
	r.Duration = time.Duration(ev.Elapsed * float64(time.Second))
	r.Output = t.out.String()
	switch ev.Action {
	case "pass":
		r.Status = StatusPassed
		r.Location, r.Message, r.Frames = nil, "", nil
	case "skip":
		r.Status = StatusSkipped
		r.Location, r.Frames = nil, nil
	case "fail":
		r.Status = StatusFailed
		if t.panic.msg != "" {
			goFailure(r, t, p.goPackage(r.Package))
		}
		if r.Message == "" && t.failedIn {
			r.Message = "a subtest failed"
		}
		p.goPackage(r.Package).failed = true
		p.goParentFailed(r)
	}
	p.finish(r)
}

// goParentFailed tells a failed subtest's parents why they will fail.
func (p *Parser) goParentFailed(r *Result) {
	for i := len(r.Path) - 1; i > 0; i-- {
		if parent := p.goTests[r.Package+"\x00"+strings.Join(r.Path[:i], "/")]; parent != nil {
			parent.failedIn = true
		}
	}
}

func (p *Parser) goPackageOutput(gp *goPackage, out string) {
	gp.out.WriteString(out)
	gp.panic.line(p, strings.TrimRight(out, "\n"))
}

// goPackageEnd closes a package: tests still running when its binary
// exited failed with it (a panic or a timeout kills them all), and a
// package that failed with no failing test gets a result of its own.
func (p *Parser) goPackageEnd(ev goEvent) {
	gp := p.goPackage(ev.Package)
	p.duration += time.Duration(ev.Elapsed * float64(time.Second))
	running := gp.running
	gp.running = nil
	if ev.Action == "fail" {
		for _, t := range running {
			r := t.res
			if p.ended[r] {
				continue
			}
			r.Status = StatusFailed
			r.Output = t.out.String()
			goFailure(r, t, gp)
			if r.Message == "" {
				r.Message = "the test binary exited while this test ran"
			}
			gp.failed = true
			p.finish(r)
		}
	}
	if ev.Action != "fail" || gp.failed {
		return
	}
	if ev.FailedBuild != "" {
		if p.goBuilt[ev.FailedBuild] {
			return
		}
		p.goBuilt[ev.FailedBuild] = true
		p.finish(p.goBuildResult(ev))
		return
	}
	r := &Result{Kind: KindPackage, Name: ev.Package, Package: ev.Package, Status: StatusFailed,
		Duration: time.Duration(ev.Elapsed * float64(time.Second)), Output: gp.out.String(),
		Message: gp.panic.msg, Location: gp.panic.loc, Frames: gp.panic.frames}
	if r.Message == "" {
		r.Message = "the package's tests failed outside any test: " + firstLine(lastLines(r.Output, 3))
	}
	p.finish(r)
}

func (p *Parser) goBuildResult(ev goEvent) *Result {
	out := p.goBuilds[ev.FailedBuild]
	r := &Result{Kind: KindBuild, Name: ev.FailedBuild, Package: ev.Package, Status: StatusFailed, Output: out.String()}
	for _, line := range strings.Split(r.Output, "\n") {
		m := goCompileLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		loc := p.paths.location(m[1], n, c)
		if r.Location == nil {
			r.Location = &loc
			r.Message = m[4]
		} else if len(r.Frames) < maxFrames {
			r.Frames = append(r.Frames, loc)
		}
	}
	if r.Message == "" {
		r.Message = "build failed: " + firstLine(r.Output)
	}
	return r
}

// flushGoOutput gives results that never ended their output so far.
func (p *Parser) flushGoOutput() {
	for _, t := range p.goTests {
		if t.res.Output == "" && t.out.Len() > 0 {
			t.res.Output = t.out.String()
		}
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
