package testresults

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/aisbx/aisbx/internal/testsel"
)

// Command is a test run ready for the sandbox: run Argv with Env added, in
// Dir below the container's workdir, after writing Files.
type Command struct {
	Framework Framework `json:"framework"`
	// Dir is the workspace-relative directory to run in ("." for the root).
	Dir  string   `json:"dir"`
	Argv []string `json:"argv"`
	Env  []string `json:"env,omitempty"` // KEY=VALUE
	// Files are reporters and plugins to write into the container before
	// the run, by workspace-relative path.
	Files map[string][]byte `json:"-"`
}

// String is the command as a shell line, for records and logs.
func (c Command) String() string {
	var b strings.Builder
	if c.Dir != "" && c.Dir != "." {
		fmt.Fprintf(&b, "cd %s && ", shellQuote(c.Dir))
	}
	for _, e := range c.Env {
		b.WriteString(shellQuoteEnv(e))
		b.WriteByte(' ')
	}
	b.WriteString(shellJoin(c.Argv))
	return b.String()
}

// CommandOptions say how commands look inside the sandbox.
type CommandOptions struct {
	// Workdir is the container's path of the workspace root, e.g. "/work".
	// Required: reporters are found and failure paths mapped through it.
	Workdir string
	// InjectDir is the workspace-relative directory reporters are written
	// to; default ".aisbx/inject" (aisbx never snapshots .aisbx, so it
	// cannot clash with user files).
	InjectDir string
	// Go, Python, Node and Npx are the programs to call; defaults "go",
	// "python3", "node", "npx".
	Go, Python, Node, Npx string
	// GoFlags are added to `go test`, e.g. -count=1 or -timeout=2m.
	GoFlags []string
}

const defaultInjectDir = ".aisbx/inject"

func (o *CommandOptions) defaults() error {
	if o.Workdir == "" || !path.IsAbs(o.Workdir) {
		return fmt.Errorf("the container workdir must be an absolute path, got %q", o.Workdir)
	}
	o.Workdir = path.Clean(o.Workdir)
	if o.InjectDir == "" {
		o.InjectDir = defaultInjectDir
	}
	if path.IsAbs(o.InjectDir) || strings.HasPrefix(path.Clean(o.InjectDir), "..") {
		return fmt.Errorf("inject dir %q must be relative to the workspace", o.InjectDir)
	}
	set := func(p *string, def string) {
		if *p == "" {
			*p = def
		}
	}
	set(&o.Go, "go")
	set(&o.Python, "python3")
	set(&o.Node, "node")
	set(&o.Npx, "npx")
	return nil
}

func (o *CommandOptions) injected(name string) string {
	return path.Join(o.Workdir, o.InjectDir, name)
}

// BuildCommand turns a selection plan into the command that runs it with
// machine-readable, streaming output: `go test -json -fullpath`, pytest with
// the aisbx plugin, unittest through the aisbx runner, node --test, jest
// and vitest with the aisbx reporters.
func BuildCommand(plan testsel.Plan, fw Framework, opts CommandOptions) (Command, error) {
	if err := opts.defaults(); err != nil {
		return Command{}, err
	}
	if !plan.All && len(plan.Units) == 0 {
		return Command{}, errors.New("the plan selects no tests")
	}
	c := Command{Framework: fw, Dir: plan.Dir, Files: map[string][]byte{}}
	if c.Dir == "" {
		c.Dir = "."
	}
	c.Env = []string{"AISBX_WORKDIR=" + opts.Workdir}
	switch fw {
	case GoTest:
		c.Argv = goArgv(plan, opts)
	case Pytest:
		c.Argv = append([]string{opts.Python, "-m", "pytest", "-p", "aisbx_pytest", "-p", "no:cacheprovider", "--color=no",
			"--continue-on-collection-errors"}, pytestTargets(plan)...)
		c.Env = append(c.Env, pythonEnv(opts)...)
		c.Files[path.Join(opts.InjectDir, pytestPluginName)] = pytestPlugin
	case Unittest:
		c.Argv = append([]string{opts.Python, "-m", "aisbx_unittest"}, unittestTargets(plan)...)
		c.Env = append(c.Env, pythonEnv(opts)...)
		c.Files[path.Join(opts.InjectDir, unittestRunnerName)] = unittestRunner
	case NodeTest:
		c.Argv = []string{opts.Node, "--test",
			"--test-reporter=" + opts.injected(nodeReporterName), "--test-reporter-destination=stdout",
			"--test-reporter=spec", "--test-reporter-destination=stderr"}
		for _, p := range jsNamePatterns(plan.Tests, true) {
			c.Argv = append(c.Argv, "--test-name-pattern="+p)
		}
		c.Argv = append(c.Argv, plan.Units...)
		c.Files[path.Join(opts.InjectDir, nodeReporterName)] = nodeReporter
		c.Files[path.Join(opts.InjectDir, jsCommonName)] = jsReporterCommon
	case Jest:
		c.Argv = []string{opts.Npx, "--no-install", "jest", "--ci", "--reporters=default",
			"--reporters=" + opts.injected(jestReporterName), "--testLocationInResults"}
		if p := jsNamePatterns(plan.Tests, false); len(p) > 0 {
			c.Argv = append(c.Argv, "-t", p[0])
		}
		if !plan.All {
			c.Argv = append(append(c.Argv, "--runTestsByPath"), plan.Units...)
		}
		c.Env = append(c.Env, "FORCE_COLOR=0")
		c.Files[path.Join(opts.InjectDir, jestReporterName)] = jestReporter
		c.Files[path.Join(opts.InjectDir, jsCommonName)] = jsReporterCommon
	case Vitest:
		c.Argv = []string{opts.Npx, "--no-install", "vitest", "run", "--reporter=default",
			"--reporter=" + opts.injected(vitestReporterName)}
		if p := jsNamePatterns(plan.Tests, false); len(p) > 0 {
			c.Argv = append(c.Argv, "-t", p[0])
		}
		c.Argv = append(c.Argv, plan.Units...)
		c.Env = append(c.Env, "FORCE_COLOR=0")
		c.Files[path.Join(opts.InjectDir, vitestReporterName)] = vitestReporter
		c.Files[path.Join(opts.InjectDir, jsCommonName)] = jsReporterCommon
	default:
		return Command{}, fmt.Errorf("unknown test framework %q", fw)
	}
	return c, nil
}

func pythonEnv(opts CommandOptions) []string {
	return []string{
		"PYTHONPATH=" + path.Join(opts.Workdir, opts.InjectDir),
		"PYTHONUNBUFFERED=1",
		"PYTHONDONTWRITEBYTECODE=1",
	}
}

// testsByUnit groups a plan's named tests by unit, in plan order.
func testsByUnit(tests []testsel.PlanTest) (map[string][]testsel.PlanTest, []string) {
	by := map[string][]testsel.PlanTest{}
	var order []string
	for _, t := range tests {
		if _, ok := by[t.Unit]; !ok {
			order = append(order, t.Unit)
		}
		by[t.Unit] = append(by[t.Unit], t)
	}
	return by, order
}

// goArgv builds `go test -json -fullpath`: one invocation for the units run
// whole, one per distinct -run/-bench filter; several invocations run in
// sh, which exits with the first failure's status after running them all.
func goArgv(plan testsel.Plan, opts CommandOptions) []string {
	base := append([]string{opts.Go, "test", "-json", "-fullpath"}, opts.GoFlags...)
	if plan.All {
		return append(base, "./...")
	}
	by, _ := testsByUnit(plan.Tests)
	var whole []string
	filtered := map[string][]string{} // flags -> units
	var flagOrder []string
	for _, u := range plan.Units {
		tests, ok := by[u]
		if !ok {
			whole = append(whole, u)
			continue
		}
		key := strings.Join(goFilterFlags(tests), "\x00")
		if _, seen := filtered[key]; !seen {
			flagOrder = append(flagOrder, key)
		}
		filtered[key] = append(filtered[key], u)
	}
	var runs [][]string
	if len(whole) > 0 {
		runs = append(runs, append(append([]string(nil), base...), whole...))
	}
	for _, key := range flagOrder {
		argv := append(append([]string(nil), base...), strings.Split(key, "\x00")...)
		runs = append(runs, append(argv, filtered[key]...))
	}
	if len(runs) == 1 {
		return runs[0]
	}
	return shellSequence(runs)
}

// goFilterFlags returns -run (and -bench) flags that run exactly the named
// tests: a single test by its full pattern, several top-level tests by
// alternation, and a mix of depths by their top-level tests (a superset:
// -run alternation applies per level, so names of different depths cannot
// share one pattern exactly).
func goFilterFlags(tests []testsel.PlanTest) []string {
	var runs, benches []testsel.PlanTest
	for _, t := range tests {
		if t.Kind == testsel.KindBenchmark || (len(t.Path) > 0 && strings.HasPrefix(t.Path[0], "Benchmark")) {
			benches = append(benches, t)
		} else {
			runs = append(runs, t)
		}
	}
	var flags []string
	if len(runs) == 0 {
		flags = append(flags, "-run=^$")
	} else {
		flags = append(flags, "-run="+goPattern(runs))
	}
	if len(benches) > 0 {
		flags = append(flags, "-bench="+goPattern(benches))
	}
	return flags
}

func goPattern(tests []testsel.PlanTest) string {
	if len(tests) == 1 {
		return testsel.GoRunPattern(tests[0].Path)
	}
	seen := map[string]bool{}
	var tops []string
	for _, t := range tests {
		if len(t.Path) > 0 && !seen[t.Path[0]] {
			seen[t.Path[0]] = true
			tops = append(tops, regexp.QuoteMeta(t.Path[0]))
		}
	}
	sort.Strings(tops)
	return "^(" + strings.Join(tops, "|") + ")$"
}

// pytestTargets are test files for units run whole and node ids
// (file::Class::test) for named tests.
func pytestTargets(plan testsel.Plan) []string {
	return targets(plan, func(u string) string { return u }, func(u string, t testsel.PlanTest) string {
		return u + "::" + strings.Join(t.Path, "::")
	})
}

// unittestTargets are dotted module names, with Class.method for named
// tests; none means discovery.
func unittestTargets(plan testsel.Plan) []string {
	module := func(u string) string { return strings.ReplaceAll(strings.TrimSuffix(u, ".py"), "/", ".") }
	return targets(plan, module, func(u string, t testsel.PlanTest) string {
		return module(u) + "." + strings.Join(t.Path, ".")
	})
}

// targets names each unit run whole with whole, and each named test with
// named; a whole-suite plan names nothing.
func targets(plan testsel.Plan, whole func(unit string) string, named func(unit string, t testsel.PlanTest) string) []string {
	if plan.All {
		return nil
	}
	by, _ := testsByUnit(plan.Tests)
	var out []string
	for _, u := range plan.Units {
		tests, ok := by[u]
		if !ok {
			out = append(out, whole(u))
			continue
		}
		for _, t := range tests {
			out = append(out, named(u, t))
		}
	}
	return out
}

// jsNamePatterns: node --test matches each test's own name (Node 20), and a
// matching suite runs all its tests, so it gets one pattern per test on its
// last name; jest and vitest match the full name (ancestors and title
// joined by spaces), so they get one alternation.
func jsNamePatterns(tests []testsel.PlanTest, node bool) []string {
	if len(tests) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, t := range tests {
		if len(t.Path) == 0 {
			continue
		}
		var p string
		if node {
			p = "^" + regexp.QuoteMeta(t.Path[len(t.Path)-1]) + "$"
		} else {
			p = regexp.QuoteMeta(strings.Join(t.Path, " "))
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if node {
		return out
	}
	return []string{"^(?:" + strings.Join(out, "|") + ")$"}
}

// Combine joins commands for one sandbox into a single sh script run from
// the workspace root: each part runs in its own directory with its own
// environment, all parts run, and the script exits with the first failure's
// status. Each part first prints a "dir" event so the parser resolves
// relative paths against the right directory. The Framework of the result
// is the first part's; the parser reads every framework's lines anyway.
func Combine(cmds []Command) (Command, error) {
	switch len(cmds) {
	case 0:
		return Command{}, errors.New("nothing to combine")
	case 1:
		return cmds[0], nil
	}
	out := Command{Framework: cmds[0].Framework, Dir: ".", Files: map[string][]byte{}}
	var parts []scriptPart
	for _, c := range cmds {
		dir := c.Dir
		if dir == "" {
			dir = "."
		}
		if path.IsAbs(dir) || strings.HasPrefix(path.Clean(dir), "..") {
			return Command{}, fmt.Errorf("command directory %q is not inside the workspace", dir)
		}
		for name, data := range c.Files {
			out.Files[name] = data
		}
		parts = append(parts, scriptPart{
			announce: fmt.Sprintf(`%s{"e":"dir","dir":%q}`, Marker, dir),
			dir:      dir,
			argv:     append(append([]string{"env"}, c.Env...), c.Argv...),
		})
	}
	out.Argv = combinedScript(parts)
	return out, nil
}
