package deps

import (
	"bufio"
	"bytes"
	"embed"
	"strings"
)

// The data files are generated or written by hand as their headers say; each
// is one entry a line, "#" starts a comment line.
//
//go:embed data/*.txt data/*.tsv
var dataFS embed.FS

// dataLines returns the non-comment lines of an embedded data file. The files
// are part of the binary, so a missing one is a build bug, not an input
// error: it yields no lines and the tests catch it.
func dataLines(name string) []string {
	b, err := dataFS.ReadFile("data/" + name)
	if err != nil {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		out = append(out, line)
	}
	return out
}

func dataSet(name string) map[string]bool {
	lines := dataLines(name)
	m := make(map[string]bool, len(lines))
	for _, l := range lines {
		m[l] = true
	}
	return m
}
