package testresults

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/aisbx/aisbx/internal/testsel"
)

// Framework is the test runner of a project.
type Framework string

const (
	GoTest   Framework = "go"
	Pytest   Framework = "pytest"
	Unittest Framework = "unittest"
	NodeTest Framework = "node"
	Jest     Framework = "jest"
	Vitest   Framework = "vitest"
)

// Detect returns the test framework of the project in dir (relative to
// root) for a language: pytest when the project says so (pytest.ini,
// [tool.pytest] in pyproject.toml, [tool:pytest] in setup.cfg, [pytest] in
// tox.ini, a conftest.py, a test file importing pytest, or pytest among its
// requirements), else unittest; for JS the package.json test script, then
// config files, then dependencies, else node --test.
func Detect(root string, lang testsel.Lang, dir string) (Framework, error) {
	abs := filepath.Join(root, filepath.FromSlash(dir))
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("project directory %s: not found", abs)
	}
	switch lang {
	case testsel.LangGo:
		return GoTest, nil
	case testsel.LangPython:
		return detectPython(abs), nil
	case testsel.LangJS:
		return detectJS(abs), nil
	}
	return "", fmt.Errorf("no test framework for language %q", lang)
}

var (
	importsPytest  = regexp.MustCompile(`(?m)^\s*(import pytest|from pytest\b|from _pytest\b|import _pytest)`)
	requiresPytest = regexp.MustCompile(`(?mi)^\s*pytest\b`)
	scriptVitest   = regexp.MustCompile(`\bvitest\b`)
	scriptJest     = regexp.MustCompile(`\bjest\b`)
	scriptNodeTest = regexp.MustCompile(`\bnode\b.*--test\b`)
)

func detectPython(dir string) Framework {
	if exists(filepath.Join(dir, "pytest.ini")) || exists(filepath.Join(dir, "conftest.py")) {
		return Pytest
	}
	if data, err := os.ReadFile(filepath.Join(dir, "pyproject.toml")); err == nil {
		var cfg map[string]any
		if _, err := toml.Decode(string(data), &cfg); err == nil {
			if tool, ok := cfg["tool"].(map[string]any); ok && tool["pytest"] != nil {
				return Pytest
			}
		}
		if bytes.Contains(data, []byte("pytest")) { // a dependency or an extra
			return Pytest
		}
	}
	if iniHasSection(filepath.Join(dir, "setup.cfg"), "tool:pytest") || iniHasSection(filepath.Join(dir, "tox.ini"), "pytest") {
		return Pytest
	}
	found := false
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if found {
			return filepath.SkipAll
		}
		if err != nil {
			return nil // an unreadable directory says nothing either way
		}
		if d.IsDir() {
			if p != dir && skippedDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		switch {
		case name == "conftest.py":
			found = true
		case strings.HasPrefix(name, "requirements") && strings.HasSuffix(name, ".txt"):
			if data, err := os.ReadFile(p); err == nil && requiresPytest.Match(data) {
				found = true
			}
		case testsel.IsTestFile(filepath.ToSlash(mustRel(dir, p))) && strings.HasSuffix(name, ".py"):
			if data, err := os.ReadFile(p); err == nil && importsPytest.Match(data) {
				found = true
			}
		}
		return nil
	})
	if found {
		return Pytest
	}
	return Unittest
}

func detectJS(dir string) Framework {
	var pkg struct {
		Scripts         map[string]string `json:"scripts"`
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
		Jest            json.RawMessage   `json:"jest"`
	}
	if data, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
		_ = json.Unmarshal(data, &pkg)
	}
	script := pkg.Scripts["test"]
	switch {
	case scriptVitest.MatchString(script):
		return Vitest
	case scriptJest.MatchString(script):
		return Jest
	case scriptNodeTest.MatchString(script):
		return NodeTest
	}
	for _, pattern := range []string{"vitest.config.*", "vitest.workspace.*"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pattern)); len(m) > 0 {
			return Vitest
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "jest.config.*")); len(m) > 0 || len(pkg.Jest) > 0 {
		return Jest
	}
	for _, deps := range []map[string]string{pkg.DevDependencies, pkg.Dependencies} {
		if _, ok := deps["vitest"]; ok {
			return Vitest
		}
		if _, ok := deps["jest"]; ok {
			return Jest
		}
	}
	return NodeTest
}

func iniHasSection(file, section string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "["+section+"]" {
			return true
		}
	}
	return false
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func skippedDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules" || name == "__pycache__" || name == "venv" || name == "site-packages"
}

func mustRel(base, p string) string {
	r, err := filepath.Rel(base, p)
	if err != nil {
		return path.Base(p)
	}
	return r
}
