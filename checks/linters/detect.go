package linters

import (
	"context"
	"strings"
	"sync"
	"time"
)

// ToolStatus says whether a linter is installed, for `aisbxd doctor`.
type ToolStatus struct {
	Name    string `json:"name"`
	Path    string `json:"path,omitempty"`
	Version string `json:"version,omitempty"`
	Found   bool   `json:"found"`
}

// Detect looks for every supported linter on PATH (and, for Go tools, in
// $GOBIN and $GOPATH/bin) and asks each found one for its version. Project-
// local installs (node_modules/.bin, .venv/bin) are used at run time but are
// not listed here: they depend on the workspace.
func Detect(ctx context.Context) []ToolStatus {
	tools := allTools()
	out := make([]ToolStatus, len(tools))
	var wg sync.WaitGroup
	for i, t := range tools {
		out[i] = ToolStatus{Name: t.name}
		path := lookGlobal(t)
		if path == "" {
			continue
		}
		out[i].Path, out[i].Found = path, true
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i].Version = toolVersion(ctx, path, t.versionArgs)
		}()
	}
	wg.Wait()
	return out
}

// toolVersion returns the first meaningful line a version command prints.
func toolVersion(ctx context.Context, bin string, args []string) string {
	o, err := run(ctx, 10*time.Second, invocation{Bin: bin, Args: args})
	if err != nil || o.ExitCode != 0 {
		return ""
	}
	text := string(o.Stdout)
	if strings.TrimSpace(text) == "" {
		text = string(o.Stderr)
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "ShellCheck - ") {
			continue
		}
		return strings.TrimPrefix(line, "version: ")
	}
	return ""
}
