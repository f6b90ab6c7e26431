// Package dangerous finds dangerous code patterns: eval and its kin, shell
// injection, unsafe deserialization, disabled TLS verification, SQL built
// from strings, weak crypto, predictable randomness used for secrets,
// world-writable files, and `curl | sh`. It covers Go, Python, JavaScript,
// TypeScript (with JSX/TSX) and shell, and names the safe alternative in
// every message.
//
// Real parsers decide what is code: go/ast for Go, tree-sitter for the
// rest, so a word in a comment or a string never fires a rule, and import
// aliases (import pickle as p, const cp = require("child_process"),
// import r "math/rand") are resolved. Files that do not parse are analyzed
// as far as the parser recovered; a syntax error is never a finding.
//
// Speed: the tree-sitter analyzers look for the words their rules care
// about first and run their queries only over those lines, and keep each
// file's last tree to reparse only what an edit changed (see treecache.go).
// allocator.go undoes go-tree-sitter's Go-callback allocator.
//
// It must never import lsp/ or anything that talks to editors; it depends
// only on checks and the parsers.
//
// Read New and Check.Run first, then catalog in rules.go, then one
// analyzer: golang.go, python.go, javascript.go or shell.go.
package dangerous
