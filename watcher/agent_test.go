package watcher

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// The simulated agent is this test binary run again with agentEnv set: a
// separate process writing files, as a coding agent does.
const (
	agentEnv     = "AISBX_WATCHER_AGENT"      // the scenario file
	agentRootEnv = "AISBX_WATCHER_AGENT_ROOT" // where to perform it
)

func TestMain(m *testing.M) {
	if file := os.Getenv(agentEnv); file != "" {
		os.Exit(runAgent(file, os.Getenv(agentRootEnv)))
	}
	os.Exit(m.Run())
}

// runAgent performs a scenario's phases below a root, one per "next" line
// on stdin, answering "done NAME" on stdout after each.
func runAgent(file, root string) int {
	sc, err := parseScenario(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	in := bufio.NewScanner(os.Stdin)
	seq := 0
	for _, ph := range sc.phases {
		if !in.Scan() {
			return 3
		}
		for _, o := range ph.ops {
			if err := o.run(root, &seq); err != nil {
				fmt.Fprintf(os.Stderr, "phase %s: %s %v: %v\n", ph.name, o.verb, o.args, err)
				return 1
			}
		}
		fmt.Printf("done %s\n", ph.name)
	}
	return 0
}

// collector keeps every event a watcher delivers, in order.
type collector struct {
	mu     sync.Mutex
	events []Event
	more   chan struct{}
}

func newCollector() *collector { return &collector{more: make(chan struct{}, 1)} }

func (c *collector) add(b []Event) {
	c.mu.Lock()
	c.events = append(c.events, b...)
	c.mu.Unlock()
	select {
	case c.more <- struct{}{}:
	default:
	}
}

func (c *collector) since(i int) []Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Event(nil), c.events[i:]...)
}

func (c *collector) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.events)
}

// waitFor waits until ok holds for the events since start, or fails the
// test after a generous deadline (a missing event, not a slow one).
func (c *collector) waitFor(t *testing.T, start int, what string, ok func([]Event) string) []Event {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		evs := c.since(start)
		missing := ok(evs)
		if missing == "" {
			return evs
		}
		select {
		case <-c.more:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("%s: never reported: %s\ngot %d events: %v", what, missing, len(evs), abbreviate(evs))
		}
	}
}

// quiet waits until no event arrived for a few settle windows.
func (c *collector) quiet(window time.Duration) {
	n := c.len()
	for {
		time.Sleep(3 * window)
		if m := c.len(); m == n {
			return
		} else {
			n = m
		}
	}
}

func abbreviate(evs []Event) string {
	var b strings.Builder
	for i, e := range evs {
		if i == 40 {
			fmt.Fprintf(&b, " ... (%d more)", len(evs)-i)
			break
		}
		b.WriteString(" " + e.String())
	}
	return b.String()
}

func layout(t *testing.T, root string, setup []op) {
	t.Helper()
	old := time.Now().Add(-time.Hour) // not racy: rescans may trust these stats
	for _, o := range setup {
		p := filepath.Join(root, filepath.FromSlash(o.args[0]))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(o.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// checkGoroutines fails when goroutines started since before outlive Close.
func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines before, %d after Close:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSimulatedAgent(t *testing.T) {
	files, err := filepath.Glob("testdata/scenarios/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			sc, err := parseScenario(file)
			if err != nil {
				t.Fatal(err)
			}
			runScenario(t, file, sc)
		})
	}
}

func runScenario(t *testing.T, file string, sc *scenario) {
	root := t.TempDir()
	layout(t, root, sc.setup)
	before := runtime.NumGoroutine()

	col := newCollector()
	w, err := New(context.Background(), root, Options{OnBatch: col.add})
	if err != nil {
		t.Fatal(err)
	}
	defer checkGoroutines(t, before)
	defer w.Close()

	abs, _ := filepath.Abs(file)
	agent := exec.Command(os.Args[0], "-test.run=^$")
	agent.Env = append(os.Environ(), agentEnv+"="+abs, agentRootEnv+"="+root)
	agent.Stderr = os.Stderr
	stdin, _ := agent.StdinPipe()
	stdout, _ := agent.StdoutPipe()
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	defer agent.Wait()
	defer stdin.Close()
	lines := bufio.NewScanner(stdout)

	m := &model{files: map[string]bool{}}
	for _, o := range sc.setup {
		m.files[o.args[0]] = true
	}
	quiet := map[string]bool{}
	rel := func(p string) string { r, _ := filepath.Rel(root, p); return filepath.ToSlash(r) }
	for _, ph := range sc.phases {
		ex := m.expect(ph)
		for p := range ex.quiet {
			quiet[p] = true
		}
		start := col.len()
		if _, err := io.WriteString(stdin, "next\n"); err != nil {
			t.Fatal(err)
		}
		if !lines.Scan() || lines.Text() != "done "+ph.name {
			t.Fatalf("agent did not finish phase %s: %q %v", ph.name, lines.Text(), lines.Err())
		}
		evs := col.waitFor(t, start, "phase "+ph.name, func(evs []Event) string {
			seen := map[string]Kind{}
			for _, e := range evs {
				seen[rel(e.Path)] = e.Kind
			}
			var missing []string
			for p := range ex.first {
				if _, ok := seen[p]; !ok {
					missing = append(missing, p)
				}
			}
			for p := range ex.gone {
				if k := seen[p]; k != Removed && k != Renamed {
					missing = append(missing, p+" (gone)")
				}
			}
			sort.Strings(missing)
			return strings.Join(missing, ", ")
		})
		col.quiet(DefaultDebounce)
		evs = col.since(start)
		first := map[string]Kind{}
		count := map[string]int{}
		for _, e := range evs {
			p := rel(e.Path)
			if _, ok := first[p]; !ok {
				first[p] = e.Kind
			}
			count[p]++
		}
		for p, want := range ex.first {
			if first[p] != want {
				t.Errorf("phase %s: %s first reported as %v, want %v", ph.name, p, first[p], want)
			}
		}
		writes := 0
		for _, o := range ph.ops {
			if o.verb == "burst" {
				fmt.Sscan(o.args[0], &writes)
			}
		}
		if writes > 0 && len(evs) >= writes {
			t.Errorf("phase %s: %d writes gave %d events: bursts are not coalesced", ph.name, writes, len(evs))
		}
		t.Logf("phase %s: %d events for %d expected paths", ph.name, len(evs), len(ex.first)+len(ex.gone))
	}
	for _, e := range col.since(0) {
		if quiet[rel(e.Path)] {
			t.Errorf("ignored path reported: %v", e)
		}
		if strings.Contains(e.Path, ".aisbx-tmp-") {
			t.Errorf("temporary file of an atomic save reported: %v", e)
		}
	}
	if st := w.Status(); st.Degraded {
		t.Errorf("watcher degraded without cause: %s", st.Reason)
	}
}
