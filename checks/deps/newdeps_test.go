package deps

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/checks"
)

// requireTool skips (or, with CI=true, fails) when a tool is missing.
func requireTool(t testing.TB, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is required: %v", name, err)
		}
		t.Skipf("%s not installed: %v", name, err)
	}
}

func gitRun(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=aisbx", "-c", "user.email=aisbx@example.invalid", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// manifestCase is a manifest as committed and as edited in the buffer.
type manifestCase struct {
	path      string
	committed string
	edited    string
	// want lists "rule name -> fix" for the findings in a git repository;
	// outside git only the dep-typosquat ones are expected.
	want []string
}

var manifestCases = []manifestCase{
	{
		path:      "package.json",
		committed: `{"name": "web", "dependencies": {"react": "^18.3.1", "lodash": "^4.17.21"}, "devDependencies": {"jest": "^29"}}`,
		edited: `{
  "name": "web",
  "dependencies": {
    "react": "^18.3.1",
    "lodash": "^4.17.21",
    "lodahs": "^1.0.0",
    "expresss": "^4.0.0",
    "preact": "^10.0.0",
    "crossenv": "^7.0.0",
    "babelcore": "^7.0.0",
    "my-utils": "npm:undrescore@^1.13.0",
    "@acme/internal-thing": "^2.0.0",
    "local-pkg": "file:../local-pkg",
    "ws-pkg": "workspace:*"
  },
  "devDependencies": {"jest": "^29", "jets": "^0.15.0", "vitest": "^1.6.0"}
}`,
		want: []string{
			"dep-typosquat lodahs -> lodash",
			"dep-typosquat expresss -> express",
			"dep-typosquat crossenv -> cross-env",
			"dep-typosquat babelcore -> @babel/core",
			"dep-typosquat undrescore -> underscore",
			"dep-new-unknown @acme/internal-thing",
			"dep-typosquat jets -> jest",
		},
	},
	{
		path:      "requirements.txt",
		committed: "requests==2.32.3\nflask\n",
		edited:    "requests==2.32.3\nFlask>=3\nreqeusts\ncolourama==0.4.6  # colours\ngrequests\nsome-internal-lib>=1.0\npython-dateutil\ndjnago==4.2 ; python_version >= \"3.10\"\n",
		want: []string{
			"dep-typosquat reqeusts -> requests",
			"dep-typosquat colourama -> colorama",
			"dep-new-unknown some-internal-lib",
			"dep-typosquat djnago -> django",
		},
	},
	{
		path:      "go.mod",
		committed: "module example.com/x\n\ngo 1.22\n\nrequire github.com/gorilla/mux v1.8.1\n",
		edited: `module example.com/x

go 1.22

require (
	github.com/gorilla/mux v1.8.1
	github.com/gorila/mux v1.8.0
	github.com/acme/private v0.1.0
	github.com/spf13/cobra v1.8.0
	github.com/sirupsen/logrus v1.9.3
	github.com/unknown/transitive v1.0.0 // indirect
)
`,
		want: []string{
			"dep-typosquat github.com/gorila/mux -> github.com/gorilla/mux",
			"dep-new-unknown github.com/acme/private",
		},
	},
	{
		path:      "pyproject.toml",
		committed: "[project]\nname = \"svc\"\ndependencies = [\"requests\"]\n",
		edited: `[project]
name = "svc"
dependencies = [
    "requests",
    "djangorestframework>=3.15",
    "beautfulsoup4",
]

[tool.poetry.dependencies]
python = "^3.12"
fastapi-magic-utils = "^0.1"
`,
		want: []string{
			"dep-typosquat beautfulsoup4 -> beautifulsoup4",
			"dep-new-unknown fastapi-magic-utils",
		},
	},
	{
		path:      "Pipfile",
		committed: "[packages]\nrequests = \"*\"\n",
		edited:    "[packages]\nrequests = \"*\"\nurllib4 = \"*\"\nnumpy = \">=2\"\n\n[dev-packages]\n\"pytest-magic-fixtures\" = \"*\"\n",
		want: []string{
			"dep-typosquat urllib4 -> urllib3",
			"dep-new-unknown pytest-magic-fixtures",
		},
	},
}

// describe renders findings as "rule name -> fix" for comparison.
func describe(f *checks.File, fs []checks.Finding) []string {
	var out []string
	for _, fd := range fs {
		s := fd.Rule + " " + string(f.Content[fd.Start:fd.End])
		if len(fd.Fixes) > 0 {
			s += " -> " + fd.Fixes[0].Edits[0].NewText
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func sorted(s []string) []string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return s
}

func runManifest(t *testing.T, c *Check, dir, name, content string) (*checks.File, []checks.Finding) {
	t.Helper()
	f := checks.NewFile(dir, filepath.Join(dir, name), []byte(content))
	if !c.Applies(f) {
		t.Fatalf("%s: check does not apply", name)
	}
	fs, err := c.Run(context.Background(), f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, fd := range fs {
		if fd.Category != checks.CategoryDependency || fd.DocURL == "" {
			t.Errorf("%s: incomplete finding %+v", name, fd)
		}
	}
	return f, fs
}

// TestNewDependencies edits manifests committed to a git repository made for
// the test: look-alikes of popular packages are warnings with a fix, other
// new names are review notes, and popular or unchanged names say nothing.
// Once the edit is committed, HEAD moved and the findings are gone.
func TestNewDependencies(t *testing.T) {
	requireTool(t, "git")
	dir := t.TempDir()
	for _, mc := range manifestCases {
		if err := os.WriteFile(filepath.Join(dir, mc.path), []byte(mc.committed), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, dir, "init", "-q")
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-q", "-m", "base")

	c := New(Options{})
	for _, mc := range manifestCases {
		t.Run(mc.path, func(t *testing.T) {
			f, fs := runManifest(t, c, dir, mc.path, mc.edited)
			if got, want := describe(f, fs), sorted(mc.want); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("findings:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			for _, fd := range fs {
				if fd.Rule == RuleNewUnknown && fd.Severity != checks.SeverityInfo {
					t.Errorf("review note with severity %s", fd.Severity)
				}
				if fd.Rule == RuleTyposquat && fd.Severity != checks.SeverityWarning {
					t.Errorf("look-alike with severity %s", fd.Severity)
				}
			}
		})
	}

	// Commit the edits: nothing is new any more.
	for _, mc := range manifestCases {
		if err := os.WriteFile(filepath.Join(dir, mc.path), []byte(mc.edited), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, dir, "commit", "-q", "-a", "-m", "edits")
	for _, mc := range manifestCases {
		if f, fs := runManifest(t, c, dir, mc.path, mc.edited); len(fs) != 0 {
			t.Errorf("%s after commit: %v", mc.path, describe(f, fs))
		}
	}
}

// TestNewDependenciesOutsideGit: without a HEAD to compare with, every
// dependency counts as new but only look-alikes are reported.
func TestNewDependenciesOutsideGit(t *testing.T) {
	dir := t.TempDir()
	c := New(Options{})
	for _, mc := range manifestCases {
		var want []string
		for _, w := range mc.want {
			if strings.HasPrefix(w, RuleTyposquat+" ") {
				want = append(want, w)
			}
		}
		f, fs := runManifest(t, c, dir, mc.path, mc.edited)
		if got := describe(f, fs); strings.Join(got, "\n") != strings.Join(sorted(want), "\n") {
			t.Errorf("%s: findings\n  %s\nwant\n  %s", mc.path, strings.Join(got, "\n  "), strings.Join(sorted(want), "\n  "))
		}
	}
}
