package watcher

import "strings"

// isEditorArtifact reports whether a file name is an editor's backup, swap,
// lock or probe file: never the code an agent or a person means to write.
func isEditorArtifact(name string) bool {
	switch {
	case name == "4913": // vim's probe for whether the directory is writable
		return true
	case strings.HasSuffix(name, "~"): // vim, emacs and many others' backups
		return true
	case strings.HasPrefix(name, ".#"): // emacs lock files
		return true
	case len(name) > 2 && name[0] == '#' && name[len(name)-1] == '#': // emacs auto-save
		return true
	case strings.HasPrefix(name, ".") && isVimSwap(name):
		return true
	case name == ".DS_Store":
		return true
	}
	return false
}

// isVimSwap matches .name.swp, .swo, .swx and the rest of vim's sequence
// (.swa ... .swz, .sva ... .svz).
func isVimSwap(name string) bool {
	if len(name) < 5 || name[len(name)-4] != '.' || name[len(name)-3] != 's' {
		return false
	}
	c2, c3 := name[len(name)-2], name[len(name)-1]
	return (c2 == 'w' || c2 == 'v') && c3 >= 'a' && c3 <= 'z'
}
