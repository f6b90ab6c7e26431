package deps

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// requirementsFile is a pip requirements file: its requirements and the
// files it includes with -r.
type requirementsFile struct {
	entries  []depEntry
	includes []string
}

// parseRequirements reads a pip requirements file. It understands comments,
// line continuations, options (-r, -c, -e, --index-url, per-line --hash),
// PEP 508 requirements (extras, specifiers, markers, "name @ url") and bare
// URLs with #egg=name.
func parseRequirements(data []byte) requirementsFile {
	var rf requirementsFile
	continued := false
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		line := bytes.TrimRight(data[off:end], "\r")
		// A continuation line carries options (--hash) of the line before;
		// the requirement's name is always on the first one.
		if !continued {
			rf.addLine(line, off)
		}
		continued = bytes.HasSuffix(line, []byte("\\"))
		off = end + 1
	}
	return rf
}

func (rf *requirementsFile) addLine(line []byte, off int) {
	// A comment starts at "#" at the line start or after a blank.
	for i := 0; i < len(line); i++ {
		if line[i] == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			line = line[:i]
			break
		}
	}
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	rest := strings.TrimRight(string(line[i:]), " \t\r\\")
	if rest == "" {
		return
	}
	if rest[0] == '-' {
		opt, arg := splitOption(rest)
		switch opt {
		case "-r", "--requirement":
			rf.includes = append(rf.includes, arg)
		case "-e", "--editable":
			if name, at := eggName(arg); name != "" {
				s := off + i + strings.Index(rest, arg) + at
				rf.entries = append(rf.entries, depEntry{name: name, start: s, end: s + len(name), local: true})
			}
		}
		return
	}
	if m := pep508URLRef.FindStringSubmatchIndex(rest); m != nil {
		// name @ url: a named package, fetched from elsewhere.
		rf.entries = append(rf.entries, depEntry{name: rest[m[2]:m[3]], start: off + i + m[2], end: off + i + m[3], local: true})
		return
	}
	if name, at := eggName(rest); name != "" && looksLikeURLOrPath(rest) {
		s := off + i + at
		rf.entries = append(rf.entries, depEntry{name: name, start: s, end: s + len(name), local: true})
		return
	}
	if looksLikeURLOrPath(rest) {
		return
	}
	if m := pep508Name.FindStringIndex(rest); m != nil {
		rf.entries = append(rf.entries, depEntry{name: rest[m[0]:m[1]], start: off + i + m[0], end: off + i + m[1]})
	}
}

var (
	pep508Name   = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?`)
	pep508URLRef = regexp.MustCompile(`^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*@\s*\S`)
)

func splitOption(s string) (opt, arg string) {
	if k := strings.IndexAny(s, " \t="); k >= 0 {
		return s[:k], strings.TrimSpace(strings.TrimLeft(s[k:], " \t="))
	}
	return s, ""
}

// eggName returns the #egg= name of a URL and its offset in s.
func eggName(s string) (string, int) {
	k := strings.Index(s, "#egg=")
	if k < 0 {
		return "", 0
	}
	m := pep508Name.FindString(s[k+5:])
	return m, k + 5
}

func looksLikeURLOrPath(s string) bool {
	return strings.Contains(s, "://") || strings.HasPrefix(s, ".") || strings.HasPrefix(s, "/") ||
		strings.HasPrefix(s, "file:") || strings.HasSuffix(s, ".whl") || strings.HasSuffix(s, ".tar.gz") || strings.HasSuffix(s, ".zip")
}

// pep508Entry turns a PEP 508 requirement string found at offset start of a
// file into an entry; "name @ url" requirements are still named packages.
func pep508Entry(req string, start int) (depEntry, bool) {
	lead := len(req) - len(strings.TrimLeft(req, " \t"))
	m := pep508Name.FindStringIndex(req[lead:])
	if m == nil {
		return depEntry{}, false
	}
	return depEntry{name: req[lead+m[0] : lead+m[1]], start: start + lead + m[0], end: start + lead + m[1]}, true
}

// pyprojectFile is what pyproject.toml declares.
type pyprojectFile struct {
	name string
	deps []depEntry
}

// parsePyproject reads every dependency list of pyproject.toml: PEP 621
// [project] dependencies and optional-dependencies, PEP 735
// [dependency-groups], [build-system] requires, Poetry's dependency tables
// and uv's and PDM's dev dependencies. Syntax is checked by a TOML decoder;
// positions come from tomlScan.
func parsePyproject(data []byte) (pyprojectFile, error) {
	var pf pyprojectFile
	var v map[string]any
	if _, err := toml.Decode(string(data), &v); err != nil {
		return pf, fmt.Errorf("pyproject.toml: %w", err)
	}
	for _, t := range tomlScan(data) {
		switch {
		case t.table == "project" && t.key == "name" && t.isString && !t.inInline:
			pf.name = t.value
		case t.isKey:
			if poetryDepTable(t.table) && t.value != "python" {
				pf.deps = append(pf.deps, depEntry{name: t.value, start: t.start, end: t.end, local: false})
			}
		case !t.isString || t.inInline:
		case t.table == "project" && t.key == "dependencies",
			t.table == "project.optional-dependencies",
			t.table == "project" && strings.HasPrefix(t.key, "optional-dependencies."),
			t.table == "dependency-groups",
			t.table == "build-system" && t.key == "requires",
			t.table == "tool.uv" && (t.key == "dev-dependencies" || t.key == "constraint-dependencies"),
			t.table == "tool.pdm.dev-dependencies":
			if e, ok := pep508Entry(t.value, t.start); ok && !looksLikeURLOrPath(strings.TrimSpace(t.value)) {
				pf.deps = append(pf.deps, e)
			}
		}
	}
	return pf, nil
}

// poetryDepTable reports whether a table's keys are Poetry dependencies.
func poetryDepTable(table string) bool {
	if table == "tool.poetry.dependencies" || table == "tool.poetry.dev-dependencies" {
		return true
	}
	return strings.HasPrefix(table, "tool.poetry.group.") && strings.HasSuffix(table, ".dependencies")
}

// parsePipfile reads the [packages] and [dev-packages] keys of a Pipfile.
func parsePipfile(data []byte) ([]depEntry, error) {
	var v map[string]any
	if _, err := toml.Decode(string(data), &v); err != nil {
		return nil, fmt.Errorf("parse Pipfile: %w", err)
	}
	var out []depEntry
	for _, t := range tomlScan(data) {
		if t.isKey && (t.table == "packages" || t.table == "dev-packages") {
			out = append(out, depEntry{name: t.value, start: t.start, end: t.end})
		}
	}
	return out, nil
}

// parseTOMLLock reads the package names of poetry.lock, uv.lock or pdm.lock.
func parseTOMLLock(data []byte) ([]string, error) {
	var lock struct {
		Package []struct {
			Name string `toml:"name"`
		} `toml:"package"`
	}
	if _, err := toml.Decode(string(data), &lock); err != nil {
		return nil, fmt.Errorf("lockfile: %w", err)
	}
	out := make([]string, 0, len(lock.Package))
	for _, p := range lock.Package {
		out = append(out, p.Name)
	}
	return out, nil
}

func parsePipfileLock(data []byte) ([]string, error) {
	var lock struct {
		Default map[string]json.RawMessage `json:"default"`
		Develop map[string]json.RawMessage `json:"develop"`
	}
	if err := json.Unmarshal(data, &lock); err != nil {
		return nil, fmt.Errorf("parse Pipfile.lock: %w", err)
	}
	var out []string
	for k := range lock.Default {
		out = append(out, k)
	}
	for k := range lock.Develop {
		out = append(out, k)
	}
	return out, nil
}

var (
	setupCfgSection = regexp.MustCompile(`(?m)^(?:install_requires|setup_requires|tests_require)[ \t]*=[ \t]*(.*(?:\n[ \t]+.*)*)`)
	setupPyList     = regexp.MustCompile(`(?s)(?:install_requires|setup_requires|tests_require)\s*=\s*\[(.*?)\]`)
	setupPyExtras   = regexp.MustCompile(`(?s)extras_require\s*=\s*\{(.*?)\}\s*[,)]`)
	bracketed       = regexp.MustCompile(`(?s)\[(.*?)\]`)
	quoted          = regexp.MustCompile(`["']([^"'\n]+)["']`)
)

// parseSetup reads requirement names from setup.cfg or, approximately, from
// the literal lists of a setup.py.
func parseSetup(name string, data []byte) []string {
	var out []string
	add := func(req string) {
		if m := pep508Name.FindString(strings.TrimSpace(req)); m != "" {
			out = append(out, m)
		}
	}
	if name == "setup.cfg" {
		for _, m := range setupCfgSection.FindAllSubmatch(data, -1) {
			for _, line := range strings.Split(string(m[1]), "\n") {
				if line = strings.TrimSpace(line); line != "" && line[0] != '#' {
					add(line)
				}
			}
		}
		return out
	}
	lists := setupPyList.FindAllSubmatch(data, -1)
	for _, ex := range setupPyExtras.FindAllSubmatch(data, -1) {
		lists = append(lists, bracketed.FindAllSubmatch(ex[1], -1)...)
	}
	for _, m := range lists {
		for _, q := range quoted.FindAllSubmatch(m[1], -1) {
			add(string(q[1]))
		}
	}
	return out
}
