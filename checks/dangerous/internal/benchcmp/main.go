// Command benchcmp measures the dangerous-pattern check side by side with
// gosec (Go) and bandit (Python) in one run: time on the planted corpus and
// on real source trees, and recall and false alarms on the corpus, every
// tool scored with the same `want:` expectations. bench/dangerous.sh runs
// it; it prints Markdown tables.
//
// Timings are medians over interleaved rounds. aisbx is timed twice: in
// process (what the daemon pays per file) and as a fresh process per run
// (what a CLI pays, comparable with the reference tools' own start-up).
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/checks/dangerous"
	"github.com/aisbx/aisbx/checks/dangerous/internal/corpus"
	"github.com/aisbx/aisbx/internal/textpos"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp:", err)
		os.Exit(1)
	}
}

type config struct {
	testdata, gosec, bandit, goTree, pyTree string
	rounds, treeRounds                      int
	verbose                                 bool
}

func run() error {
	var c config
	scan := flag.Bool("scan", false, "check the files given as arguments and print the number of findings (used to time aisbx as a process)")
	flag.StringVar(&c.testdata, "testdata", "checks/dangerous/testdata", "the dangerous check's testdata directory")
	flag.StringVar(&c.gosec, "gosec", "gosec", "gosec binary (v2.30.0)")
	flag.StringVar(&c.bandit, "bandit", "bandit", "bandit binary")
	flag.StringVar(&c.goTree, "go-tree", filepath.Join(runtime.GOROOT(), "src", "net", "http"), "a Go package directory to time on (non-test files)")
	flag.StringVar(&c.pyTree, "py-tree", firstGlob("/usr/lib/python3*/email"), "a Python source tree to time on")
	flag.IntVar(&c.rounds, "rounds", 7, "rounds on the corpus")
	flag.IntVar(&c.treeRounds, "tree-rounds", 3, "rounds on the real trees")
	flag.BoolVar(&c.verbose, "v", false, "list every miss and false alarm")
	flag.Parse()
	if *scan {
		return scanFiles(flag.Args())
	}
	return compare(c)
}

func firstGlob(pattern string) string {
	m, _ := filepath.Glob(pattern)
	if len(m) == 0 {
		return ""
	}
	return m[0]
}

// scanFiles is the process aisbx is timed as.
func scanFiles(paths []string) error {
	c := dangerous.New(dangerous.Options{TreeCacheEntries: -1})
	n := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fs, err := c.Run(context.Background(), checks.NewFile("", p, b))
		if err != nil {
			return err
		}
		n += len(fs)
	}
	fmt.Println(n)
	return nil
}

// suite is one language's side-by-side: a set of files, aisbx, and the
// reference tool's command over the same files.
type suite struct {
	name    string
	root    string            // corpus root the tool's paths are relative to
	files   map[string][]byte // relative path -> content
	tool    string            // "gosec" or "bandit"
	toolCmd func(out string) *exec.Cmd
	parse   func([]byte) ([]toolFinding, error)
	mapping map[string][]string
}

func compare(c config) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "benchcmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	var suites []suite
	goRoot := filepath.Join(tmp, "gocorpus")
	if err := goModule(c.testdata, goRoot); err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp: no Go corpus module, skipping gosec:", err)
	} else if gosec, err := exec.LookPath(c.gosec); err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp: gosec not found, skipping it:", err)
	} else {
		files, err := readTree(goRoot, ".go", nil)
		if err != nil {
			return err
		}
		suites = append(suites, suite{name: "Go corpus", root: goRoot, files: files, tool: "gosec " + toolVersion(gosec, "-version"),
			toolCmd: func(out string) *exec.Cmd {
				cmd := exec.Command(gosec, "-quiet", "-fmt=json", "-out="+out, "-no-fail", "./...")
				cmd.Dir = goRoot
				return cmd
			}, parse: parseGosec, mapping: gosecRules})
	}
	pyRoot := filepath.Join(c.testdata, "python")
	if bandit, err := exec.LookPath(c.bandit); err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp: bandit not found, skipping it:", err)
	} else {
		files, err := readTree(pyRoot, ".py", map[string]bool{"broken.py": true})
		if err != nil {
			return err
		}
		suites = append(suites, suite{name: "Python corpus", root: pyRoot, files: files, tool: "bandit " + toolVersion(bandit, "--version"),
			toolCmd: func(out string) *exec.Cmd {
				args := []string{"-q", "-f", "json", "-o", out}
				cmd := exec.Command(bandit, append(args, slices.Sorted(maps.Keys(files))...)...)
				cmd.Dir = pyRoot
				return cmd
			}, parse: parseBandit, mapping: banditRules})
	}
	if len(suites) == 0 {
		return errors.New("neither gosec nor bandit is available")
	}

	fmt.Printf("# Dangerous patterns: aisbx side by side with gosec and bandit\n\n")
	fmt.Printf("%s, %d CPUs, %s. Medians of %d interleaved rounds (%d on trees); files that do not parse are left out (the reference tools refuse them).\n\n",
		runtime.Version(), runtime.NumCPU(), time.Now().UTC().Format("2006-01-02 15:04 MST"), c.rounds, c.treeRounds)
	fmt.Println("## Planted corpus: recall and false alarms, same expectations for every tool")
	fmt.Println()
	fmt.Println("| set | tool | expected | found | missed | false alarms | other findings¹ | median ms |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|")
	var notes []string
	for _, s := range suites {
		ours, toolScore, times, err := runSuite(s, self, tmp, c.rounds)
		if err != nil {
			return err
		}
		fmt.Printf("| %s | aisbx (in process) | %d | %d | %d | %d | – | %.2f |\n", s.name, ours.expected, ours.found, len(ours.missed), ours.falseAlarms, ms(median(times["inproc"])))
		fmt.Printf("| %s | aisbx (process) | | | | | | %.1f |\n", s.name, ms(median(times["proc"])))
		fmt.Printf("| %s | %s | %d | %d | %d | %d | %d | %.1f |\n", s.name, s.tool, toolScore.expected, toolScore.found, len(toolScore.missed), toolScore.falseAlarms, toolScore.outOfScope, ms(median(times["tool"])))
		notes = append(notes, fmt.Sprintf("%s: aisbx as a process is %.1f× faster than %s; in process %.0f×.", s.name,
			ratio(times["tool"], times["proc"]), strings.Fields(s.tool)[0], ratio(times["tool"], times["inproc"])))
		if c.verbose {
			notes = append(notes, listing(s.name+" aisbx missed", ours.missed), listing(s.name+" aisbx false alarms", ours.alarms),
				listing(s.name+" "+s.tool+" missed", toolScore.missed), listing(s.name+" "+s.tool+" false alarms", toolScore.alarms))
		}
	}
	fmt.Println()
	fmt.Println("¹ Findings of rules outside this comparison (unhandled errors, import blocklists, any subprocess call, partial paths); not counted as false alarms.")
	fmt.Printf("Reference tools' findings count when within %d lines of an expectation of their rule (they report multi-line calls and SQL built on an earlier line elsewhere); aisbx's must be on the line.\n", toolSlack)
	fmt.Println()
	for _, n := range notes {
		fmt.Println("- " + n)
	}
	fmt.Println()
	return trees(c, self, tmp)
}

// runSuite times aisbx (in process and as a process) and the reference tool
// over a suite's files in interleaved rounds, and scores both.
func runSuite(s suite, self, tmp string, rounds int) (ours, tool score, times map[string][]time.Duration, err error) {
	times = map[string][]time.Duration{}
	paths := make([]string, 0, len(s.files))
	for _, p := range slices.Sorted(maps.Keys(s.files)) {
		paths = append(paths, filepath.Join(s.root, p))
	}
	out := filepath.Join(tmp, "tool.json")
	var toolOut []byte
	var oursGot map[string][]corpus.Got
	for r := 0; r < rounds; r++ {
		start := time.Now()
		oursGot, err = checkInProcess(s.root, s.files)
		if err != nil {
			return
		}
		times["inproc"] = append(times["inproc"], time.Since(start))

		start = time.Now()
		if b, cerr := exec.Command(self, append([]string{"-scan"}, paths...)...).CombinedOutput(); cerr != nil {
			err = fmt.Errorf("aisbx process: %v: %s", cerr, b)
			return
		}
		times["proc"] = append(times["proc"], time.Since(start))

		os.Remove(out)
		cmd := s.toolCmd(out)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start = time.Now()
		cerr := cmd.Run()
		times["tool"] = append(times["tool"], time.Since(start))
		if toolOut, err = os.ReadFile(out); err != nil {
			err = fmt.Errorf("%s wrote no report (%v): %s", s.tool, cerr, stderr.String())
			return
		}
	}
	for p, content := range s.files {
		cs := corpus.Compare(corpus.Wants(content), oursGot[p])
		ours.expected += cs.Found + len(cs.Missed)
		ours.found += cs.Found
		ours.falseAlarms += len(cs.Extra)
		for _, w := range cs.Missed {
			ours.missed = append(ours.missed, fmt.Sprintf("%s:%d:%s", p, w.Line, w.Rule))
		}
		for _, g := range cs.Extra {
			ours.alarms = append(ours.alarms, fmt.Sprintf("%s:%d:%s", p, g.Line, g.Label))
		}
	}
	fs, err := s.parse(toolOut)
	if err != nil {
		return
	}
	tool = scoreFindings(s.files, fs, relTo(s.root), s.mapping, toolSlack)
	return
}

// toolSlack is how many lines away from an expectation a reference tool's
// finding may land and still count (see corpus.CompareNear). aisbx gets
// none.
const toolSlack = 3

func checkInProcess(root string, files map[string][]byte) (map[string][]corpus.Got, error) {
	c := dangerous.New(dangerous.Options{TreeCacheEntries: -1})
	got := map[string][]corpus.Got{}
	for p, content := range files {
		fs, err := c.Run(context.Background(), checks.NewFile(root, filepath.Join(root, p), content))
		if err != nil {
			return nil, err
		}
		idx := textpos.NewIndex(content)
		for _, f := range fs {
			got[p] = append(got[p], corpus.Got{Line: idx.LineOf(f.Start) + 1, Rules: []string{f.Rule}, Label: f.Rule})
		}
	}
	return got, nil
}

// trees times aisbx and each reference tool on a real source tree.
func trees(c config, self, tmp string) error {
	type job struct {
		name, dir, ext string
		skip           func(string) bool
		tool           func(out string) *exec.Cmd
	}
	var jobs []job
	if gosec, err := exec.LookPath(c.gosec); err == nil && c.goTree != "" {
		jobs = append(jobs, job{"Go: " + c.goTree, c.goTree, ".go", func(p string) bool { return strings.HasSuffix(p, "_test.go") || strings.Contains(p, "/") },
			func(out string) *exec.Cmd {
				cmd := exec.Command(gosec, "-quiet", "-fmt=json", "-out="+out, "-no-fail", "-tests=false", ".")
				cmd.Dir = c.goTree
				return cmd
			}})
	}
	if bandit, err := exec.LookPath(c.bandit); err == nil && c.pyTree != "" {
		jobs = append(jobs, job{"Python: " + c.pyTree, c.pyTree, ".py", func(string) bool { return false },
			func(out string) *exec.Cmd { return exec.Command(bandit, "-q", "-r", "-f", "json", "-o", out, c.pyTree) }})
	}
	if len(jobs) == 0 {
		return nil
	}
	fmt.Println("## Real trees: time over the same files")
	fmt.Println()
	fmt.Println("| tree | files | MB | tool | median s | MB/s | aisbx speed-up |")
	fmt.Println("|---|---:|---:|---|---:|---:|---:|")
	for _, j := range jobs {
		files := map[string][]byte{}
		size := 0
		err := filepath.WalkDir(j.dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) != j.ext {
				return err
			}
			rel, _ := filepath.Rel(j.dir, p)
			if j.skip(filepath.ToSlash(rel)) {
				return nil
			}
			b, err := os.ReadFile(p)
			files[p], size = b, size+len(b)
			return err
		})
		if err != nil {
			return err
		}
		paths := slices.Sorted(maps.Keys(files))
		t := map[string][]time.Duration{}
		out := filepath.Join(tmp, "tree.json")
		for r := 0; r < c.treeRounds; r++ {
			start := time.Now()
			if _, err := checkInProcess("", files); err != nil {
				return err
			}
			t["in"] = append(t["in"], time.Since(start))
			start = time.Now()
			if b, err := exec.Command(self, append([]string{"-scan"}, paths...)...).CombinedOutput(); err != nil {
				return fmt.Errorf("aisbx process: %v: %s", err, b)
			}
			t["proc"] = append(t["proc"], time.Since(start))
			start = time.Now()
			_ = j.tool(out).Run() // bandit exits 1 when it finds something
			t["tool"] = append(t["tool"], time.Since(start))
		}
		mb := float64(size) / 1e6
		tool := strings.Fields(filepath.Base(j.tool(out).Path))[0]
		for _, row := range []struct {
			label, key string
		}{{"aisbx (in process)", "in"}, {"aisbx (process)", "proc"}, {tool, "tool"}} {
			up := fmt.Sprintf("%.1f×", ratio(t["tool"], t[row.key]))
			if row.key == "tool" {
				up = "–"
			}
			d := median(t[row.key]).Seconds()
			fmt.Printf("| %s | %d | %.2f | %s | %.3f | %.1f | %s |\n", j.name, len(files), mb, row.label, d, mb/d, up)
		}
	}
	fmt.Println()
	return nil
}

// goModule copies the Go corpus (not the file that does not compile) into
// a module of its own with golang.org/x/crypto, so that gosec can load and
// type-check it.
func goModule(testdata, dst string) error {
	for _, dir := range []string{"dangerous", "safe"} {
		files, err := readTree(filepath.Join(testdata, "go", dir), ".go", nil)
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return fmt.Errorf("no Go files in %s", filepath.Join(testdata, "go", dir))
		}
		for p, b := range files {
			target := filepath.Join(dst, dir, p)
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(target, b, 0o644); err != nil {
				return err
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dst, "go.mod"), []byte("module corpus\n\ngo 1.24\n"), 0o644); err != nil {
		return err
	}
	cmd := exec.Command("go", "mod", "tidy")
	cmd.Dir = dst
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod tidy in %s: %v: %s", dst, err, b)
	}
	return nil
}

// readTree reads the files with ext under root, keyed by slash path
// relative to root.
func readTree(root, ext string, skip map[string]bool) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ext || skip[d.Name()] {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	return files, err
}

// toolVersion asks a tool its version; a Go binary built by go install
// says "dev", so its module version is read from the binary instead.
func toolVersion(bin string, flag string) string {
	if b, err := exec.Command("go", "version", "-m", bin).Output(); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 3 && f[0] == "mod" {
				return f[2]
			}
		}
	}
	b, _ := exec.Command(bin, flag).CombinedOutput()
	for _, f := range strings.Fields(string(b)) {
		if len(f) > 1 && (f[0] == 'v' || f[0] >= '0' && f[0] <= '9') && strings.Count(f, ".") >= 1 {
			return f
		}
	}
	return ""
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration{}, ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func ratio(slow, fast []time.Duration) float64 {
	f := median(fast)
	if f == 0 {
		return 0
	}
	return float64(median(slow)) / float64(f)
}

func listing(title string, items []string) string {
	if len(items) == 0 {
		return title + ": none"
	}
	return title + ": " + strings.Join(items, ", ")
}
