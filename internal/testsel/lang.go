package testsel

import (
	"path"
	"strings"
)

// Lang is a language whose tests aisbx selects and runs.
type Lang string

const (
	LangGo     Lang = "go"
	LangPython Lang = "python"
	LangJS     Lang = "js" // JavaScript and TypeScript
)

var jsExts = map[string]grammar{
	".js": grammarJS, ".mjs": grammarJS, ".cjs": grammarJS, ".jsx": grammarJS,
	".ts": grammarTS, ".mts": grammarTS, ".cts": grammarTS, ".tsx": grammarTSX,
}

// LangOf returns the language of a source file by its name, and false for
// files that are not Go, Python or JS/TS source.
func LangOf(name string) (Lang, bool) {
	ext := path.Ext(name)
	switch {
	case ext == ".go":
		return LangGo, true
	case ext == ".py":
		return LangPython, true
	}
	if _, ok := jsExts[ext]; ok {
		return LangJS, true
	}
	return "", false
}

// IsTestFile reports whether rel (slash-separated, relative to a project)
// holds tests by the conventions of its language's runners. For JS it is the
// union of node --test, jest and vitest defaults; a runner given a file that
// holds no tests reports none.
func IsTestFile(rel string) bool {
	lang, ok := LangOf(rel)
	if !ok {
		return false
	}
	base := path.Base(rel)
	dirs := strings.Split(path.Dir(rel), "/")
	switch lang {
	case LangGo:
		return strings.HasSuffix(base, "_test.go")
	case LangPython:
		if base == "conftest.py" || base == "__init__.py" {
			return false
		}
		stem := strings.TrimSuffix(base, ".py")
		if strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") {
			return true
		}
		// unittest discovers test*.py; in a tests/ directory that is the intent.
		return strings.HasPrefix(stem, "test") && inDir(dirs, "tests", "test")
	case LangJS:
		stem := strings.TrimSuffix(base, path.Ext(base))
		if strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") ||
			strings.HasSuffix(stem, "-test") || strings.HasSuffix(stem, "_test") ||
			strings.HasPrefix(stem, "test-") || stem == "test" {
			return true
		}
		return inDir(dirs, "__tests__", "test")
	}
	return false
}

func inDir(dirs []string, names ...string) bool {
	for _, d := range dirs {
		for _, n := range names {
			if d == n {
				return true
			}
		}
	}
	return false
}
