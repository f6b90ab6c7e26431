package report

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/textpos"
)

// Report is the outcome of checking many files.
type Report struct {
	// Root is the workspace root; paths in reports are relative to it.
	Root string
	// Files are the checked files that have findings; files without any
	// may be left out.
	Files []FileFindings
	// Errors are checks that failed on a file (a linter crashed).
	Errors       []FileError
	FilesScanned int
	BytesScanned int64
	Duration     time.Duration
	// Rules describe the rules of the checks that ran (checks.RuleLister),
	// for SARIF. Rules of findings missing here are described from the
	// findings themselves.
	Rules []checks.Rule
	// Version is aisbx's version, for SARIF's tool.driver.
	Version string
}

// FileFindings are the findings in one file. Content must be what the
// findings' offsets point into.
type FileFindings struct {
	Path     string // absolute
	Content  []byte
	Findings []checks.Finding
}

// FileError is one check that failed on one file.
type FileError struct {
	Path    string `json:"path"`
	Check   string `json:"check"`
	Message string `json:"message"`
}

// Formats lists the formats Write accepts.
var Formats = []string{"text", "json", "sarif", "junit"}

// Options tune the human-readable output.
type Options struct {
	Color bool // ANSI colours (only for a terminal)
}

// Write writes r in format.
func Write(w io.Writer, format string, r *Report, opts Options) error {
	switch format {
	case "text":
		return WriteText(w, r, opts)
	case "json":
		return WriteJSON(w, r)
	case "sarif":
		return WriteSARIF(w, r)
	case "junit":
		return WriteJUnit(w, r)
	}
	return fmt.Errorf("unknown report format %q (want %s)", format, strings.Join(Formats, ", "))
}

// Total counts the findings.
func (r *Report) Total() int {
	n := 0
	for _, f := range r.Files {
		n += len(f.Findings)
	}
	return n
}

// located is a finding with its place in a report.
type located struct {
	checks.Finding
	Rel string // slash-separated, relative to the root
	pos position
}

// position is a finding's range: 1-based lines and UTF-16 columns, the end
// column exclusive.
type position struct {
	Line, Col, EndLine, EndCol int
}

func locate(idx *textpos.Index, fd checks.Finding) position {
	s, e := idx.UTF16(fd.Start), idx.UTF16(fd.End)
	return position{Line: s.Line + 1, Col: s.Col + 1, EndLine: e.Line + 1, EndCol: e.Col + 1}
}

// fileView is one file's findings, located, in report order.
type fileView struct {
	Rel      string
	Content  []byte
	Index    *textpos.Index
	Findings []located
}

// view sorts files by path and findings by position.
func (r *Report) view() []fileView {
	out := make([]fileView, 0, len(r.Files))
	for _, f := range r.Files {
		if len(f.Findings) == 0 {
			continue
		}
		v := fileView{Rel: r.rel(f.Path), Content: f.Content, Index: textpos.NewIndex(f.Content)}
		for _, fd := range f.Findings {
			v.Findings = append(v.Findings, located{Finding: fd, Rel: v.Rel, pos: locate(v.Index, fd)})
		}
		sort.SliceStable(v.Findings, func(i, j int) bool {
			a, b := v.Findings[i], v.Findings[j]
			if a.Start != b.Start {
				return a.Start < b.Start
			}
			return a.Rule < b.Rule
		})
		out = append(out, v)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out
}

// rel returns path relative to the root, slash-separated; an absolute path
// outside the root is kept as is.
func (r *Report) rel(path string) string {
	if r.Root != "" && filepath.IsAbs(path) {
		if rel, err := filepath.Rel(r.Root, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(path)
}

// uriOf turns a relative slash path into a URI reference.
func uriOf(rel string) string {
	u := &url.URL{Path: rel}
	return u.String()
}
