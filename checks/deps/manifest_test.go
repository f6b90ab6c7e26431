package deps

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func names(ents []depEntry) string {
	var out []string
	for _, e := range ents {
		out = append(out, e.name)
	}
	return strings.Join(out, " ")
}

// TestLockfiles reads lockfiles written by npm 11, pnpm 9.15 and yarn
// 1.22 for the same package.json (is-number and @babel/code-frame): each
// lists the same five packages. (yarn's "resolved" lines were dropped.)
func TestLockfiles(t *testing.T) {
	want := "@babel/code-frame @babel/helper-validator-identifier is-number js-tokens picocolors"
	for _, name := range []string{"package-lock.json", "pnpm-lock.yaml", "yarn.lock"} {
		b, err := os.ReadFile(filepath.Join("testdata", "js", "locks", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := lockNames(name, b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var list []string
		for n := range got {
			list = append(list, n)
		}
		sort.Strings(list)
		if strings.Join(list, " ") != want {
			t.Errorf("%s: %v, want %s", name, list, want)
		}
	}
	if _, err := lockNames("package-lock.json", []byte("{")); err == nil {
		t.Error("broken package-lock.json accepted")
	}
}

func TestRequirementsParsing(t *testing.T) {
	src := `# comment
requests[security,socks]>=2.31 ; python_version >= "3.8"  # trailing
  Django~=5.0
PyYAML==6.0.1 \
    looks-like-a-name \
    --hash=sha256:def
-r other.txt
--requirement=more.txt
-c constraints.txt
-e git+https://example.invalid/acme/lib.git#egg=acmelib
-e .
./local/pkg
https://example.invalid/x-1.0-py3-none-any.whl
pkg-from-url @ https://example.invalid/pkg.tar.gz
--index-url https://example.invalid/simple
zope.interface
`
	rf := parseRequirements([]byte(src))
	// Continuation lines carry options, not requirements; pkg-from-url is named.
	if got := names(rf.entries); got != "requests Django PyYAML acmelib pkg-from-url zope.interface" {
		t.Errorf("entries: %s", got)
	}
	for _, e := range rf.entries {
		if src[e.start:e.end] != e.name {
			t.Errorf("%s: range covers %q", e.name, src[e.start:e.end])
		}
	}
	if got := strings.Join(rf.includes, " "); got != "other.txt more.txt" {
		t.Errorf("includes: %s", got)
	}
}

func TestPyprojectParsing(t *testing.T) {
	src := `[build-system]
requires = ["hatchling"]

[project]
name = "svc"
dependencies = ["httpx>=0.27", 'rich']
optional-dependencies.cli = ["typer"]

[project.optional-dependencies]
test = [
  "pytest>=8",  # comment with "quotes"
  """hypothesis""",
]

[dependency-groups]
dev = ["ruff", {include-group = "test"}]

[tool.uv]
dev-dependencies = ["mypy"]

[tool.poetry.dependencies]
python = "^3.12"
"Flask" = {version = "^3", extras = ["async"]}

[tool.poetry.group.docs.dependencies]
mkdocs = "*"

[tool.other]
dependencies = ["not-a-dep"]
`
	pp, err := parsePyproject([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if pp.name != "svc" {
		t.Errorf("name %q", pp.name)
	}
	if got := names(pp.deps); got != "hatchling httpx rich typer pytest hypothesis ruff mypy Flask mkdocs" {
		t.Errorf("deps: %s", got)
	}
	for _, e := range pp.deps {
		if src[e.start:e.end] != e.name {
			t.Errorf("%s: range covers %q", e.name, src[e.start:e.end])
		}
	}
	if _, err := parsePyproject([]byte("[project\nname=")); err == nil {
		t.Error("broken TOML accepted")
	}
}

func TestSetupAndPipfileLock(t *testing.T) {
	cfg := "[metadata]\nname = x\n\n[options]\ninstall_requires =\n    requests>=2\n    click\npython_requires = >=3.8\n"
	if got := strings.Join(parseSetup("setup.cfg", []byte(cfg)), " "); got != "requests click" {
		t.Errorf("setup.cfg: %s", got)
	}
	py := "from setuptools import setup\nsetup(name='x', install_requires=['numpy>=1.26', \"pandas\"], extras_require={'plot': ['matplotlib']})\n"
	if got := strings.Join(parseSetup("setup.py", []byte(py)), " "); got != "numpy pandas matplotlib" {
		t.Errorf("setup.py: %s", got)
	}
	lock := `{"_meta": {}, "default": {"requests": {"version": "==2.32.3"}}, "develop": {"pytest": {}}}`
	got, err := parsePipfileLock([]byte(lock))
	sort.Strings(got)
	if err != nil || strings.Join(got, " ") != "pytest requests" {
		t.Errorf("Pipfile.lock: %v %v", got, err)
	}
}

// TestTSConfigExtends: paths come through "extends", JSONC and all.
func TestTSConfigExtends(t *testing.T) {
	dir := t.TempDir()
	if err := writeFile(filepath.Join(dir, "tsconfig.base.json"), `{
  // base config
  "compilerOptions": {"baseUrl": "src", "paths": {"@lib/*": ["lib/*"],},},
}`); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(filepath.Join(dir, "tsconfig.json"), `{"extends": "./tsconfig.base", "compilerOptions": {"strict": true}}`); err != nil {
		t.Fatal(err)
	}
	ts := New(Options{}).loadTSConfig(filepath.Join(dir, "tsconfig.json"), 0)
	if ts == nil || len(ts.aliases) != 1 || !ts.aliases[0].match("@lib/x/y") || ts.aliases[0].match("@other/x") || ts.baseURL != filepath.Join(dir, "src") {
		t.Fatalf("tsconfig: %+v", ts)
	}
}

func TestJSPackageName(t *testing.T) {
	tests := map[string]string{
		"react": "react", "react-dom/client": "react-dom", "@babel/core": "@babel/core",
		"@babel/runtime/helpers/extends": "@babel/runtime", "lodash.merge": "lodash.merge",
		"./x": "", "../x": "", "/abs": "", "node:fs": "", "https://esm.sh/react": "", "bun:test": "",
		"#internal": "", "~/x": "", "@/components/x": "", "$lib/x": "", "@scope": "", "virtual:pwa": "",
		"style-loader!css-loader!./x.css": "", "vue?raw": "vue", "_private": "", "": "",
	}
	for spec, want := range tests {
		got, ok := jsPackageName(spec)
		if got != want || ok != (want != "") {
			t.Errorf("jsPackageName(%q) = %q, %v; want %q", spec, got, ok, want)
		}
	}
}
