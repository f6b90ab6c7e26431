package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/aisbx/aisbx/internal/ignore"
	"github.com/aisbx/aisbx/internal/testsel"
	"github.com/aisbx/aisbx/internal/textpos"
	"github.com/aisbx/aisbx/internal/workspace"
)

// maxDiscoverFiles bounds a folder's discovery, so a huge monorepo answers
// promptly; editors ask again per file as they open them.
const maxDiscoverFiles = 2000

// discover lists the tests of one file (its buffer when open).
func (s *session) discover(ws *workspace.Workspace, path string) ([]testsel.Test, []byte, error) {
	content, err := s.readDoc(path)
	if err != nil {
		return nil, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
	}
	tests, err := testsel.Discover(relTo(ws, path), content)
	if err != nil {
		return nil, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "discovering tests in %s: %v", path, err)
	}
	return tests, content, nil
}

// testID is a test's stable id, as results report it: the unit (Go import
// path, or file) and the result name. aisbx/testResult uses the same ids.
func testID(ws *workspace.Workspace, t testsel.Test) string {
	return ws.TestUnit(t.File) + ":" + t.ResultName()
}

// discoveredTest is one entry of aisbx/discoverTests.
type discoveredTest struct {
	ID     string               `json:"id"`
	Label  string               `json:"label"`
	URI    protocol.DocumentURI `json:"uri"`
	Range  protocol.Range       `json:"range"`
	Kind   string               `json:"kind"`
	Parent string               `json:"parent,omitempty"`
}

// discoverTests answers aisbx/discoverTests for a file or a folder.
func (s *session) discoverTests(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		URI protocol.DocumentURI `json:"uri"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.URI == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "aisbx/discoverTests needs {uri}")
	}
	target, err := uriToPath(p.URI)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
	}
	ws := s.workspaceFor(target)
	if ws == nil || ws.Root == "" {
		return map[string]any{"tests": []discoveredTest{}}, nil
	}
	files := []string{target}
	if isDir(target) {
		all, err := ignore.Files(ctx, target)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "listing %s: %v", target, err)
		}
		files = files[:0]
		for _, f := range all {
			if testsel.IsTestFile(f) {
				files = append(files, filepath.Join(target, filepath.FromSlash(f)))
			}
			if len(files) == maxDiscoverFiles {
				break
			}
		}
	}
	out := []discoveredTest{}
	for _, f := range files {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		tests, content, err := s.discover(ws, f)
		if err != nil || len(tests) == 0 {
			continue
		}
		idx := textpos.NewIndex(content)
		uri := pathToURI(f)
		fileID := "file:" + relTo(ws, f)
		out = append(out, discoveredTest{ID: fileID, Label: path.Base(filepath.ToSlash(f)), URI: uri,
			Range: protocolRange(idx, 0, 0), Kind: "file"})
		byPath := map[string]string{}
		for _, t := range tests {
			id := testID(ws, t)
			byPath[strings.Join(t.Path, "\x00")] = id
			parent := fileID
			if len(t.Path) > 1 {
				if pid, ok := byPath[strings.Join(t.Path[:len(t.Path)-1], "\x00")]; ok {
					parent = pid
				}
			}
			out = append(out, discoveredTest{ID: id, Label: t.Path[len(t.Path)-1], URI: uri,
				Range: protocolRange(idx, t.Start, t.End), Kind: discoveredKind(t.Kind), Parent: parent})
		}
	}
	return map[string]any{"tests": out}, nil
}

func discoveredKind(k testsel.Kind) string {
	switch k {
	case testsel.KindSubtest:
		return "subtest"
	case testsel.KindClass, testsel.KindSuite:
		return "suite"
	}
	return "function"
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func indexOf(b []byte) *textpos.Index { return textpos.NewIndex(b) }

func posOf(line, col int) textpos.Position { return textpos.Position{Line: line, Col: col} }
