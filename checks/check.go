package checks

import "context"

// Check is one kind of preflight check.
//
// Run must be safe for concurrent use, return promptly once ctx is done, and
// report offsets into f.Content. It returns an error only when the check
// itself failed (a linter crashed); "nothing found" is an empty result.
type Check interface {
	// Name identifies the check in config and logs: "secrets", "dangerous",
	// "deps", "linters".
	Name() string
	// Applies reports whether the check has anything to say about f. It must
	// be cheap: it runs for every file.
	Applies(f *File) bool
	Run(ctx context.Context, f *File) ([]Finding, error)
}
