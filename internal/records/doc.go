// Package records keeps the audit trail of sandboxed test runs: one JSON
// file per run in <workspace>/.aisbx/runs (configurable), written
// atomically, kept by count and age, and redacted of secrets.
//
// A Record says what ran (command, image digest, snapshot hash), why (the
// trigger, the selection and its reasons, the changed files and their AI
// provenance), on what (the dependencies, read by a DependencyReader) and
// what came of it (per-test results, the sandbox's status). It is enough to
// reproduce the run (Record.Reproduce) and exports as JUnit XML
// (Record.WriteJUnit).
//
// Read Store.Write (store.go) first. This package must never import lsp/ or
// sandbox/; it reads testsel and testresults types only to convert them.
package records
