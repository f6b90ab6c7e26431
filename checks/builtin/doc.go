// Package builtin assembles aisbx's checks engine from configuration: which
// checks run (secrets, dangerous, deps, linters, vulns), with which options
// and timeouts, and which rules are disabled or re-graded.
//
// It is the one place that imports every check package; the daemon and the
// CLI call NewEngine and never build checks themselves. It must not import
// lsp/ or internal/cli. Read NewEngine first.
package builtin
