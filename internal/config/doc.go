// Package config loads aisbx.toml: built-in defaults, under the user's file
// (~/.config/aisbx/config.toml), under the workspace root's aisbx.toml.
//
// Loading never panics and never half-applies a file: Load returns either a
// complete Config or Problems (each at a file and line, ready to become
// diagnostics), and the caller keeps its last good Config. Unknown keys are
// warnings; the rest of the file still applies.
//
// Start with Load and Config. This package imports no other aisbx package
// except checks (for severities), so every layer can use it.
package config
