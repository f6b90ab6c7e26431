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

// Preparer is implemented by checks that do better over many files at once
// than one by one: a linter that starts a process per file pays its
// start-up every time. The CLI hands Engine.Prepare every on-disk file it is
// about to check, in the order it will Run them; Run then answers from the
// batch when the file is still as the batch saw it. Editors check one file
// at a time and never call it.
type Preparer interface {
	Prepare(ctx context.Context, files []*File)
}
