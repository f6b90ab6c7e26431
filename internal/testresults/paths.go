package testresults

import (
	"path"
	"strings"
)

// pathMapper turns paths printed inside the container into workspace
// locations: absolute paths below the workdir become workspace-relative,
// relative paths are taken from the directory the command ran in.
type pathMapper struct {
	workdir string // the container's workspace root, cleaned; "" maps nothing
	dir     string // workspace-relative directory of the command
}

func (m pathMapper) location(file string, line, col int) Location {
	f, external := m.file(file)
	return Location{File: f, Line: line, Column: col, External: external}
}

// file maps one path; external reports a path outside the workspace (the
// Go root, site-packages, node internals).
func (m pathMapper) file(p string) (string, bool) {
	p = strings.TrimPrefix(p, "file://")
	if p == "" {
		return "", true
	}
	if !path.IsAbs(p) {
		rel := path.Join(m.dir, p)
		if rel == ".." || strings.HasPrefix(rel, "../") {
			return p, true
		}
		return rel, false
	}
	p = path.Clean(p)
	if m.workdir == "" {
		return p, true
	}
	if p == m.workdir {
		return ".", false
	}
	if rel, ok := strings.CutPrefix(p, m.workdir+"/"); ok {
		for _, part := range strings.Split(rel, "/") {
			if part == "node_modules" || part == "site-packages" || part == "dist-packages" {
				return rel, true
			}
		}
		return rel, false
	}
	return p, true
}
