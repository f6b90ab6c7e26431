package testresults

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/internal/testsel"
)

const sampleWorkspaces = "../testsel/testdata/workspaces"

// TestDetect names the framework of each sample workspace and fixture
// project.
func TestDetect(t *testing.T) {
	cases := []struct {
		root string
		lang testsel.Lang
		want Framework
	}{
		{filepath.Join(sampleWorkspaces, "gows"), testsel.LangGo, GoTest},
		{filepath.Join(sampleWorkspaces, "pyws"), testsel.LangPython, Pytest},     // [tool.pytest.ini_options]
		{filepath.Join(sampleWorkspaces, "pyunit"), testsel.LangPython, Unittest}, // nothing says pytest
		{filepath.Join(sampleWorkspaces, "jsws"), testsel.LangJS, NodeTest},       // "test": "node --test"
		{filepath.Join(sampleWorkspaces, "jestws"), testsel.LangJS, Jest},         // "test": "jest"
		{"testdata/projects/vitestproj", testsel.LangJS, Vitest},
		{"testdata/projects/jestproj", testsel.LangJS, Jest},
		{"testdata/projects/pyproj", testsel.LangPython, Pytest}, // a test imports pytest
	}
	for _, c := range cases {
		got, err := Detect(c.root, c.lang, ".")
		if err != nil || got != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.root, got, err, c.want)
		}
	}
	// Config files and dependencies decide when the test script does not.
	dir := t.TempDir()
	write(t, filepath.Join(dir, "package.json"), []byte(`{"devDependencies":{"vitest":"^2"}}`))
	if got, _ := Detect(dir, testsel.LangJS, "."); got != Vitest {
		t.Errorf("vitest devDependency: got %q", got)
	}
	write(t, filepath.Join(dir, "package.json"), []byte(`{}`))
	write(t, filepath.Join(dir, "jest.config.ts"), []byte(`export default {}`))
	if got, _ := Detect(dir, testsel.LangJS, "."); got != Jest {
		t.Errorf("jest.config.ts: got %q", got)
	}
	write(t, filepath.Join(dir, "setup.cfg"), []byte("[tool:pytest]\naddopts = -q\n"))
	if got, _ := Detect(dir, testsel.LangPython, "."); got != Pytest {
		t.Errorf("setup.cfg [tool:pytest]: got %q", got)
	}
	if _, err := Detect(dir, testsel.LangGo, "missing"); err == nil {
		t.Error("a missing project directory was accepted")
	}
}

type commandCase struct {
	Name      string       `json:"name"`
	Framework Framework    `json:"framework"`
	Plan      testsel.Plan `json:"plan"`
	GoFlags   []string     `json:"go_flags"`
	Argv      []string     `json:"argv"`
	Env       []string     `json:"env"`
	Files     []string     `json:"files"`
}

// TestBuildCommand compares the commands built for the plans of
// testdata/commands.json with the argv, env and injected files there.
func TestBuildCommand(t *testing.T) {
	data, err := os.ReadFile("testdata/commands.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []commandCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			cmd, err := BuildCommand(c.Plan, c.Framework, CommandOptions{Workdir: "/work", GoFlags: c.GoFlags})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cmd.Argv, c.Argv) {
				t.Errorf("argv:\n got %q\nwant %q", cmd.Argv, c.Argv)
			}
			if c.Env != nil && !reflect.DeepEqual(cmd.Env, c.Env) {
				t.Errorf("env:\n got %q\nwant %q", cmd.Env, c.Env)
			}
			var files []string
			for f := range cmd.Files {
				files = append(files, f)
			}
			sort.Strings(files)
			if !reflect.DeepEqual(files, c.Files) {
				t.Errorf("files: got %v, want %v", files, c.Files)
			}
			if cmd.Dir != c.Plan.Dir {
				t.Errorf("dir: got %q, want %q", cmd.Dir, c.Plan.Dir)
			}
			if s := cmd.String(); !strings.Contains(s, c.Argv[0]) {
				t.Errorf("String() = %q", s)
			}
		})
	}
	for _, bad := range []struct {
		plan testsel.Plan
		fw   Framework
		opts CommandOptions
	}{
		{testsel.Plan{All: true}, GoTest, CommandOptions{}},
		{testsel.Plan{All: true}, GoTest, CommandOptions{Workdir: "relative"}},
		{testsel.Plan{All: true}, GoTest, CommandOptions{Workdir: "/w", InjectDir: "../out"}},
		{testsel.Plan{}, GoTest, CommandOptions{Workdir: "/w"}},
		{testsel.Plan{All: true}, "rspec", CommandOptions{Workdir: "/w"}},
	} {
		if _, err := BuildCommand(bad.plan, bad.fw, bad.opts); err == nil {
			t.Errorf("BuildCommand(%+v, %q, %+v) accepted bad input", bad.plan, bad.fw, bad.opts)
		}
	}
}
