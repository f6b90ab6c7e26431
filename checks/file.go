package checks

import (
	"path/filepath"
	"strings"
)

// File is the input of a check: a file's content and where it lives.
type File struct {
	// Path is the file's absolute path on disk (it need not exist: an unsaved
	// buffer has a path too).
	Path string
	// Root is the workspace root the file belongs to, or "" when unknown.
	// Checks that look at manifests (go.mod, package.json) start there.
	Root string
	// Content is what the user sees: the editor's buffer or the file on disk.
	Content  []byte
	Language Language
	// OnDisk reports that Content is what the file holds on disk (the file
	// was just opened or saved, or is being checked from the CLI), so tools
	// that read files themselves (go vet, eslint) see the same text. It is
	// false for an editor buffer with unsaved changes.
	OnDisk bool
}

// NewFile builds a File and detects its language.
func NewFile(root, path string, content []byte) *File {
	return &File{Path: path, Root: root, Content: content, Language: DetectLanguage(path, content)}
}

// Rel returns the path relative to Root, slash-separated; the base name when
// the file lies outside Root.
func (f *File) Rel() string {
	if f.Root != "" {
		if rel, err := filepath.Rel(f.Root, f.Path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(f.Path)
}
