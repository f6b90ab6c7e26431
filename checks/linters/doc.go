// Package linters runs the user's own linters (go vet, staticcheck,
// golangci-lint, ruff, bandit, eslint, shellcheck) when they are installed,
// and turns their machine-readable output into checks.Findings.
//
// Each tool is a small adapter: how to find it, how to call it (on a file on
// disk or on an unsaved buffer through stdin), and how to read its output,
// minding the unit its columns count in. A missing tool is skipped quietly;
// Detect lists what is installed for `aisbxd doctor`. Go's package-level
// tools run once per package directory and content, not once per file. The
// CLI hands its whole file list to Prepare first, and bandit and ESLint then
// check many files per process (batch.go); editors lint one file at a time.
//
// It imports checks and internal/textpos, never lsp/ nor the other checks.
// Read Check.Run first, then the tool table in tools.go.
package linters
