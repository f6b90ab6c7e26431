// Package ignore decides which files of a workspace matter: it reads
// .gitignore files the way git does and lists a workspace's files.
//
// Three parts of aisbx share it: `aisbxd check` walks a tree with it, the
// sandbox snapshot lists the files a run may see, and the watcher drops events
// for ignored paths. Start with Files (a listing) or NewMatcher (a question
// about one path). Standard library only.
package ignore
