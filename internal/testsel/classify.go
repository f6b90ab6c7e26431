package testsel

import (
	"path"
	"strings"
)

// DefaultInert are the changed files no test reads: documentation, editor
// and CI settings, images. Patterns match the base name, or the whole path
// when they hold a "/"; a trailing "/" matches a directory anywhere.
var DefaultInert = []string{
	"*.md", "*.markdown", "*.rst", "*.adoc", "*.txt",
	"LICENSE*", "COPYING*", "NOTICE*", "AUTHORS*", "CHANGELOG*", "CODEOWNERS",
	".gitignore", ".gitattributes", ".editorconfig", ".mailmap",
	"*.png", "*.jpg", "*.jpeg", "*.gif", "*.svg", "*.ico",
	".github/", ".vscode/", ".idea/", ".aisbx/",
}

// configFiles change how a language's tests build or run without being
// imported; a change to one runs its project's whole suite.
var configFiles = map[Lang][]string{
	LangGo: {"go.mod", "go.sum", "go.work", "go.work.sum"},
	LangPython: {"pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini", "requirements*.txt",
		"Pipfile", "Pipfile.lock", "poetry.lock", "uv.lock", ".coveragerc"},
	LangJS: {"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
		"tsconfig*.json", "jsconfig.json", "jest.config.*", "vitest.config.*", "vite.config.*",
		"babel.config.*", ".babelrc", ".babelrc.*", ".swcrc", ".nvmrc", ".node-version"},
}

func matchesAny(patterns []string, rel string) bool {
	base := path.Base(rel)
	for _, p := range patterns {
		switch {
		case strings.HasSuffix(p, "/"):
			d := strings.TrimSuffix(p, "/")
			if strings.HasPrefix(rel, d+"/") || strings.Contains(rel, "/"+d+"/") {
				return true
			}
		case strings.Contains(p, "/"):
			if ok, _ := path.Match(p, rel); ok {
				return true
			}
		default:
			if ok, _ := path.Match(p, base); ok {
				return true
			}
		}
	}
	return false
}

// configLang returns the language whose config file rel is.
func configLang(rel string) (Lang, bool) {
	for _, l := range []Lang{LangGo, LangPython, LangJS} {
		if matchesAny(configFiles[l], rel) {
			return l, true
		}
	}
	return "", false
}
