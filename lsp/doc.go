// Package lsp is aisbx's face for editors: a Language Server Protocol
// session over any byte stream. It is the only package that imports
// go.lsp.dev; everything it shows comes from packages that know nothing of
// LSP (internal/workspace, checks, sandbox, ...).
//
// Read Serve first, then session.go for per-connection state, then one file
// per feature: lifecycle.go, textsync.go, diagnostics.go, codeaction.go,
// command.go. middleware.go and stream.go work around the pitfalls of
// go.lsp.dev/protocol v0.12.0 and jsonrpc2 v0.10.0 listed in
// shared/NOTES.md (numeric cancel ids, null diagnostics, panics, code-0
// errors, strict initialize decoding, malformed frames, exit on stdin).
// nyi.go lists the methods aisbx does not implement.
package lsp
