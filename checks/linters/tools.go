package linters

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/aisbx/aisbx/checks"
)

// tool is one linter adapter.
type tool struct {
	name    string   // as written in aisbx.toml: "go vet"
	aliases []string // other accepted spellings
	id      string   // rule-id prefix: "go-vet"
	bin     string   // executable name
	langs   []checks.Language
	unit    unit // what its columns count
	// stdin tools read the content on stdin, so they lint unsaved buffers;
	// the others read files from disk and run only when File.OnDisk.
	stdin bool
	// local lists directories, relative to a directory between the file and
	// the workspace root, where a project-local install lives.
	local       []string
	goBin       bool     // also look in $GOBIN and $GOPATH/bin
	versionArgs []string // prints the version
	// accepts refines handles: a tool may refuse a file of its language
	// (shellcheck cannot lint zsh).
	accepts func(f *checks.File) bool
	lint    func(ctx context.Context, env *toolEnv, f *checks.File) ([]diag, error)
	// lintMany, when set, lints many files on disk in one process, for
	// the CLI (batch.go), started in workDir(f) (projectDir when nil);
	// files whose workDir is "" are not batched.
	lintMany  lintManyFunc
	workDir   func(f *checks.File) string
	batchSize int // files per lintMany process; 0: defaultBatchSize
}

// allTools returns the adapters in a stable order.
func allTools() []*tool {
	return []*tool{goVet, staticcheckTool, golangciLint, ruffTool, banditTool, eslintTool, shellcheckTool}
}

// ToolNames lists the tool names Options.Enabled accepts.
func ToolNames() []string {
	var names []string
	for _, t := range allTools() {
		names = append(names, t.name)
	}
	return names
}

func toolByName(name string) *tool {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, t := range allTools() {
		if n == t.name {
			return t
		}
		for _, a := range t.aliases {
			if n == a {
				return t
			}
		}
	}
	return nil
}

// handles reports whether t lints f in its current state.
func (t *tool) handles(f *checks.File) bool {
	if !t.stdin && !f.OnDisk {
		return false
	}
	for _, l := range t.langs {
		if l == f.Language {
			return t.accepts == nil || t.accepts(f)
		}
	}
	return false
}

// dirsUp lists dir and its parents up to and including root; only dir when
// dir is not below root.
func dirsUp(dir, root string) []string {
	dirs := []string{dir}
	if root == "" {
		return dirs
	}
	root = filepath.Clean(root)
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return dirs
	}
	for d := dir; d != root; {
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
		dirs = append(dirs, d)
	}
	return dirs
}
