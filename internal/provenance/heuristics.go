package provenance

import (
	"os"
	"path/filepath"
	"time"
)

// DefaultLargeInsertLines is how many lines one editor change must insert
// before LargeInsert calls it likely AI (configurable).
const DefaultLargeInsertLines = 20

// DiskChange is what the daemon knows when the watcher reports a file
// changed on disk.
type DiskChange struct {
	File string
	Time time.Time
	// DirtyInClient: an editor holds unsaved changes to the file, so the
	// person is working on it.
	DirtyInClient bool
	// SavedByClient: an editor saved the file just now (didSave within the
	// settle window); the change is the editor's own write.
	SavedByClient bool
	// GitBusy: a git operation (checkout, merge, rebase, pull) is under way
	// in the workspace; its writes are not an agent's.
	GitBusy bool
	// Ranges are the changed lines when known (RangesFromDiff against the
	// last content the daemon saw); nil means the whole file.
	Ranges  []Range
	Content []byte // used for the whole-file range when Ranges is nil
}

// ExternalWrite classifies a change on disk nobody in an editor made: with
// no hook reporting it, the likeliest writer is an agent working outside
// the editor. False when an editor or git explains the change.
func ExternalWrite(c DiskChange) (Edit, bool) {
	if c.SavedByClient || c.DirtyInClient || c.GitBusy {
		return Edit{}, false
	}
	ranges := c.Ranges
	if ranges == nil {
		ranges = wholeFile(c.Content)
	}
	if len(ranges) == 0 {
		return Edit{}, false // only deletions: nothing was written to review
	}
	return Edit{
		Tool:       ToolUnknown,
		File:       c.File,
		Ranges:     normalize(append([]Range(nil), ranges...)),
		Time:       c.Time,
		Source:     SourceExternalWrite,
		Confidence: ConfidenceExternalWrite,
	}, true
}

// LargeInsert classifies one editor change (a didChange content change, as
// a LineChange) that grows the file by at least minLines lines (0 means the
// default) as likely AI: people type line by line, completions and chat panels paste
// blocks.
func LargeInsert(file string, c LineChange, minLines int, at time.Time) (Edit, bool) {
	if minLines <= 0 {
		minLines = DefaultLargeInsertLines
	}
	// Net growth, not lines inserted: a client that resends the whole
	// document on each keystroke replaces every line, and that is no paste.
	if c.Inserted-c.Deleted < minLines {
		return Edit{}, false
	}
	return Edit{
		Tool:       ToolUnknown,
		File:       file,
		Ranges:     []Range{{c.Start, c.Start + c.Inserted}},
		Time:       at,
		Source:     SourceLargeInsert,
		Confidence: ConfidenceLargeInsert,
	}, true
}

// GitBusy reports whether a git operation is under way in the repository
// at root: its lock file or an unfinished merge, rebase, cherry-pick or
// revert is present.
func GitBusy(root string) bool {
	gitDir := filepath.Join(root, ".git")
	for _, name := range []string{"index.lock", "MERGE_HEAD", "rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD", "REVERT_HEAD"} {
		if _, err := os.Lstat(filepath.Join(gitDir, name)); err == nil {
			return true
		}
	}
	return false
}
