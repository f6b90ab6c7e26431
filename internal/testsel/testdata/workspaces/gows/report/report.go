// Package report formats titles; its tests use geom, the package does not.
package report

import "strings"

// Title upper-cases s.
func Title(s string) string { return strings.ToUpper(s) }
