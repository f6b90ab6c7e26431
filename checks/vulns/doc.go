// Package vulns is the check that reports dependencies with known
// vulnerabilities: it reads a manifest or lockfile with internal/inventory,
// looks each exact version up in the local OSV store (internal/vulndb) and
// reports one finding per advisory on the line that declares the package,
// with the advisory id and aliases, severity (CVSS where OSV gives it),
// the fixed version and, where the file pins the version, a quick fix that
// bumps it.
//
// For Go it lowers the severity, as govulncheck's reachability does but
// cheaply, when the module's own code never imports the vulnerable package
// or never names its vulnerable symbols (reach.go).
//
// It must not import lsp or the CLI. Read Check.Run first, then Introduced
// (the `aisbxd check --changed` gate).
package vulns
