// Package checks is aisbx's preflight engine: it runs every check that applies
// to a file, concurrently and with a timeout each, and returns findings.
//
// It knows nothing of LSP or of the CLI. Faces convert Finding byte offsets
// with internal/textpos. The concrete checks live in subpackages (secrets,
// dangerous, deps, linters); checks/builtin assembles them from config.
//
// Read Finding and Check first, then Engine.Run.
package checks
