// Package watcher tells aisbx which files of a workspace changed on disk,
// whoever changed them: an editor, a coding agent, a build, a git checkout.
//
// One Watcher watches one workspace root recursively on top of fsnotify. It
// drops ignored paths (.git, node_modules, vendor, build outputs, anything a
// .gitignore excludes, editors' backup and swap files), coalesces bursts into
// settled batches, folds atomic saves (write a temporary file, rename it over
// the target) into one "written" event, and walks new directories as they
// appear. When inotify cannot keep up (its queue overflowed, or the watch limit
// ran out) it falls back to rescanning or polling, and says so in Status and
// on Notices, so that no change is lost silently.
//
// Read New first, then Event. Nothing here knows about LSP, checks or
// provenance: the daemon decides what a change means. This package must never
// import lsp/, go.lsp.dev, checks/ or internal/provenance.
package watcher
