// Package daemon runs the shared per-user aisbx daemon and connects clients
// to it, the way `gopls -remote=auto` does: `aisbxd serve` forwards an
// editor's stdio to the daemon's Unix socket, starting the daemon when none
// answers, and the daemon serves every editor window, CLI call and agent hook
// from one process, so workspaces, sandbox pools and run records exist once.
//
// Read Run (the daemon side) and Forward (the client side). Paths says where
// the socket lives. The daemon wires lsp and internal/workspace; it never
// imports go.lsp.dev itself.
package daemon
