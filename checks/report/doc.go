// Package report writes the findings of a run over many files for people
// and machines: text (grouped by file, coloured on a terminal), JSON, SARIF
// 2.1.0 for GitHub code scanning, and JUnit XML for CI test views.
//
// Every format speaks 1-based lines and 1-based columns counted in UTF-16
// code units (SARIF's default column kind, and what editors' LSP clients
// count), with end columns exclusive. No format echoes file content: messages
// come from findings, which never carry a secret in full, and SARIF carries
// no snippets.
//
// It imports checks and internal/textpos only. Start with Report and Write.
package report
