// Package documents keeps the text of the files an editor has open: it
// applies incremental edits given in line/UTF-16 positions and tracks
// versions. One Store belongs to one editor connection.
//
// It knows nothing of LSP types; the LSP face converts its params into
// Change values. Start with Store.Change. Imports internal/textpos only.
package documents
