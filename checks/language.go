package checks

import (
	"bytes"
	"path"
	"strings"
)

// Language is what a file is written in, as far as checks care.
type Language string

const (
	LangGo         Language = "go"
	LangGoMod      Language = "gomod" // go.mod and go.work
	LangPython     Language = "python"
	LangJavaScript Language = "javascript"
	LangTypeScript Language = "typescript"
	LangShell      Language = "shell"
	LangTOML       Language = "toml"
	LangYAML       Language = "yaml"
	LangJSON       Language = "json"
	LangDockerfile Language = "dockerfile"
	LangMarkdown   Language = "markdown"
	LangText       Language = "text"
)

var byExt = map[string]Language{
	".go": LangGo,
	".py": LangPython, ".pyi": LangPython, ".pyw": LangPython,
	".js": LangJavaScript, ".mjs": LangJavaScript, ".cjs": LangJavaScript, ".jsx": LangJavaScript,
	".ts": LangTypeScript, ".mts": LangTypeScript, ".cts": LangTypeScript, ".tsx": LangTypeScript,
	".sh": LangShell, ".bash": LangShell, ".zsh": LangShell, ".ksh": LangShell,
	".toml": LangTOML, ".yaml": LangYAML, ".yml": LangYAML,
	".json": LangJSON, ".jsonc": LangJSON,
	".md": LangMarkdown, ".markdown": LangMarkdown,
}

// DetectLanguage guesses a file's language from its name, then from a
// shebang line.
func DetectLanguage(name string, content []byte) Language {
	base := path.Base(strings.ReplaceAll(name, `\`, "/"))
	if base == "Dockerfile" || strings.HasPrefix(base, "Dockerfile.") || strings.HasSuffix(base, ".dockerfile") {
		return LangDockerfile
	}
	if base == "go.mod" || base == "go.work" {
		return LangGoMod
	}
	if l, ok := byExt[strings.ToLower(path.Ext(base))]; ok {
		return l
	}
	if bytes.HasPrefix(content, []byte("#!")) {
		first := content
		if i := bytes.IndexByte(first, '\n'); i >= 0 {
			first = first[:i]
		}
		switch {
		case bytes.Contains(first, []byte("python")):
			return LangPython
		case bytes.Contains(first, []byte("node")), bytes.Contains(first, []byte("deno")), bytes.Contains(first, []byte("bun")):
			return LangJavaScript
		case bytes.Contains(first, []byte("sh")):
			return LangShell
		}
	}
	return LangText
}

// LineComment returns the token that starts a line comment in l, or "" when
// the language has none (JSON).
func LineComment(l Language) string {
	switch l {
	case LangGo, LangGoMod, LangJavaScript, LangTypeScript:
		return "//"
	case LangJSON:
		return ""
	case LangMarkdown:
		return ""
	default:
		return "#"
	}
}
