// Package edtest holds what the real-editor tests (editors/nvim,
// editors/vscode) share: building aisbxd, finding the editors the install
// scripts put in the CI cache, the Docker and image preconditions (a skip
// locally, a failure with CI=true), and the sample workspaces in testdata/.
// It is imported by tests only and must never import aisbx's own packages:
// the editors talk to the built binary, as users' editors do. Read Workspace
// first.
package edtest
