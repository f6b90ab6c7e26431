// Package testsel chooses the tests a change can break, and finds the tests
// declared in a file.
//
// Selection maps changed files (an editor's edits, `git diff` through
// ChangedSince, an agent's edit set) to test units through each language's
// import graph: Go packages (go/build over every module of the workspace,
// test imports included), Python modules (tree-sitter, with src/ layouts,
// relative imports and conftest.py), and JS/TS modules (tree-sitter, with
// extension and index probing and tsconfig paths). A change it cannot map (a
// go.mod, a package.json, an unknown file) runs its project's whole suite,
// and says so. Every selected unit carries the reason it runs. The outcome
// is a Plan per project, which testresults turns into a command.
//
// Discovery (Discover, TestAt) lists the tests of one file with their byte
// ranges, for code lenses and "run this test".
//
// Read Selector.Select (selector.go) first, then affected.go. This package
// reads the workspace only; it never runs tests and must never import lsp/,
// sandbox/, testresults or records.
package testsel
