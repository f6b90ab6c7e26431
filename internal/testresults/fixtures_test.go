package testresults

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/internal/testfs"
	"github.com/aisbx/aisbx/internal/testsel"
)

// generated are the directories a copy of a sample project leaves out:
// installed packages and bytecode caches, which the tools regenerate.
var generated = []string{"node_modules", "__pycache__"}

var regen = flag.Bool("regen", false, "re-run the real tools to regenerate testdata/fixtures (see testdata/gen.sh)")

// fixtureWorkdir is where generation runs each project: it stands for the
// sandbox's workdir, and the parser tests map paths back from it.
const fixtureWorkdir = "/tmp/aisbx-fixtures/work"

// fixture is one captured run of a real tool over a project in
// testdata/projects.
type fixture struct {
	name      string
	project   string
	framework Framework
	plan      testsel.Plan
	goFlags   []string
	// truncate cuts the captured output the way the sandbox caps it.
	truncateFrom string
}

var fixtures = []fixture{
	{name: "go_mixed", project: "goproj", framework: GoTest,
		plan: testsel.Plan{Lang: testsel.LangGo, Dir: ".", Units: []string{"./calc", "./fails", "./panicky", "./broken"}}},
	{name: "go_timeout", project: "goproj", framework: GoTest, goFlags: []string{"-timeout=2s"},
		plan: testsel.Plan{Lang: testsel.LangGo, Dir: ".", Units: []string{"./slow"}}},
	{name: "pytest_mixed", project: "pyproj", framework: Pytest,
		plan: testsel.Plan{Lang: testsel.LangPython, Dir: ".", All: true}},
	{name: "unittest_mixed", project: "pyproj", framework: Unittest,
		plan: testsel.Plan{Lang: testsel.LangPython, Dir: ".", Units: []string{"tests/test_unit.py"}}},
	{name: "node_mixed", project: "nodeproj", framework: NodeTest,
		plan: testsel.Plan{Lang: testsel.LangJS, Dir: ".", All: true}},
	{name: "jest_mixed", project: "jestproj", framework: Jest,
		plan: testsel.Plan{Lang: testsel.LangJS, Dir: ".", All: true}},
	{name: "vitest_mixed", project: "vitestproj", framework: Vitest,
		plan: testsel.Plan{Lang: testsel.LangJS, Dir: ".", All: true}},
	{name: "go_truncated", truncateFrom: "go_mixed"},
	{name: "pytest_truncated", truncateFrom: "pytest_mixed"},
	{name: "node_truncated", truncateFrom: "node_mixed"},
}

// truncationMarker is the line the fixtures' simulated sandbox cap puts
// between the head and the tail it keeps.
const truncationMarker = "[aisbx: output truncated]"

// TestGenerateFixtures re-runs the real tools when -regen is given.
func TestGenerateFixtures(t *testing.T) {
	if !*regen {
		t.Skip("run with -regen (testdata/gen.sh) to re-run the real tools")
	}
	for _, f := range fixtures {
		if f.truncateFrom != "" {
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			out, code, err := runFixture(t, f)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: exit %d, %d bytes", f.name, code, len(out))
			write(t, filepath.Join("testdata", "fixtures", f.name+".out"), out)
		})
	}
	for _, f := range fixtures {
		if f.truncateFrom == "" {
			continue
		}
		src, err := os.ReadFile(filepath.Join("testdata", "fixtures", f.truncateFrom+".out"))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join("testdata", "fixtures", f.name+".out"), capOutput(src, len(src)/3, len(src)/4))
	}
}

// capOutput keeps head bytes and tail bytes around a marker line, cutting
// lines in the middle, as an output cap does.
func capOutput(b []byte, head, tail int) []byte {
	var out bytes.Buffer
	out.Write(b[:head])
	fmt.Fprintf(&out, "\n%s %d bytes dropped\n", truncationMarker, len(b)-head-tail)
	out.Write(b[len(b)-tail:])
	return out.Bytes()
}

func write(t *testing.T, p string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// runFixture copies a project to fixtureWorkdir, writes the command's
// injected files, runs it with stdout and stderr merged as the sandbox
// streams them, and returns the output and exit code.
func runFixture(t *testing.T, f fixture) ([]byte, int, error) {
	t.Helper()
	if err := os.RemoveAll(filepath.Dir(fixtureWorkdir)); err != nil {
		return nil, 0, err
	}
	testfs.CopyTree(t, filepath.Join("testdata", "projects", f.project), fixtureWorkdir, generated...)
	var out bytes.Buffer
	code, err := runIn(t, fixtureWorkdir, f.framework, f.plan, CommandOptions{Workdir: fixtureWorkdir, GoFlags: f.goFlags}, &out)
	return out.Bytes(), code, err
}

// runIn builds the command for plan and runs it below root (the stand-in
// for the container's workdir), streaming stdout and stderr into out.
func runIn(t *testing.T, root string, fw Framework, plan testsel.Plan, opts CommandOptions, out io.Writer) (int, error) {
	t.Helper()
	opts = hostTools(t, root, fw, plan.Dir, opts)
	cmd, err := BuildCommand(plan, fw, opts)
	if err != nil {
		return 0, err
	}
	return runCommand(t, root, cmd, out)
}

// hostTools finds the tools a framework needs on this host.
func hostTools(t *testing.T, root string, fw Framework, dir string, opts CommandOptions) CommandOptions {
	t.Helper()
	switch fw {
	case Pytest, Unittest:
		opts.Python = findPython(t, fw == Pytest)
	case Jest, Vitest:
		linkJSDeps(t, filepath.Join(root, filepath.FromSlash(dir)), string(fw))
	case NodeTest:
		needTool(t, "node")
	case GoTest:
		needTool(t, "go")
	}
	return opts
}

// runCommand writes cmd's files below root and runs it as the sandbox would,
// stdout and stderr merged into out.
func runCommand(t *testing.T, root string, cmd Command, out io.Writer) (int, error) {
	t.Helper()
	for rel, data := range cmd.Files {
		write(t, filepath.Join(root, filepath.FromSlash(rel)), data)
	}
	c := exec.CommandContext(t.Context(), cmd.Argv[0], cmd.Argv[1:]...)
	c.Dir = filepath.Join(root, filepath.FromSlash(cmd.Dir))
	c.Env = append(os.Environ(), cmd.Env...)
	c.Stdout, c.Stderr = out, out
	err := c.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code, err = ee.ExitCode(), nil
	}
	return code, err
}

// findPython returns a python3 that can run the tests: with pytest
// importable when withPytest (Debian's python3-pytest lives in
// /usr/bin/python3's path, not in a pyenv one).
func findPython(t testing.TB, withPytest bool) string {
	t.Helper()
	for _, cand := range []string{"python3", "/usr/bin/python3", "python"} {
		p, err := exec.LookPath(cand)
		if err != nil {
			continue
		}
		if !withPytest || exec.Command(p, "-c", "import pytest").Run() == nil {
			return p
		}
	}
	what := "python3"
	if withPytest {
		what = "python3 with pytest (apt-get install python3-pytest)"
	}
	missing(t, what)
	return ""
}

// linkJSDeps makes jest or vitest resolvable from a project by linking
// node_modules to $AISBX_JSDEPS/node_modules (testdata/gen.sh installs
// them there).
func linkJSDeps(t testing.TB, dir, tool string) {
	t.Helper()
	deps := os.Getenv("AISBX_JSDEPS")
	if deps == "" {
		deps = "/tmp/aisbx-jsdeps"
	}
	if _, err := os.Stat(filepath.Join(deps, "node_modules", ".bin", tool)); err != nil {
		missing(t, tool+" in "+deps+"/node_modules (testdata/gen.sh installs it)")
	}
	if err := os.Symlink(filepath.Join(deps, "node_modules"), filepath.Join(dir, "node_modules")); err != nil && !os.IsExist(err) {
		t.Fatal(err)
	}
}

func needTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		missing(t, name)
	}
	return p
}

// missing skips a test that needs an external tool, or fails it in CI.
func missing(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is required in CI", what)
	}
	t.Skipf("%s not found", what)
}

// markerLine returns the 1-based line of the first line of file (in a
// testdata project) that holds marker.
func markerLine(t testing.TB, file, marker string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	t.Fatalf("%s: no line holds %q", file, marker)
	return 0
}
