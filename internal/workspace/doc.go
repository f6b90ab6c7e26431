// Package workspace owns what aisbx keeps once per workspace root, shared by
// every editor window, CLI call and agent hook that touches it: the
// effective config (and the last good one), the checks engine, and later the
// watcher, sandbox pool and run records.
//
// A Registry hands out Workspaces by root and reference-counts them; the LSP
// face and the daemon's control requests go through it. Background work of a
// Workspace runs under its context and stops when the last user releases it.
//
// Start with Registry.Acquire. Never imports lsp/ or go.lsp.dev.
package workspace
