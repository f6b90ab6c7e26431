// Package textpos converts between byte offsets and the line/column
// positions that editors and reports use.
//
// Everything in aisbx that finds something in a file (checks, test output
// parsers, config errors) speaks in byte offsets into the file's content.
// The faces convert at the edge: the LSP face to UTF-16 code units (what the
// protocol counts), the CLI and SARIF to 1-based lines and columns.
//
// Start with NewIndex. It never imports anything outside the standard library.
package textpos
