package inventory

import (
	"bytes"
	"strings"
)

// parseRequirements reads a pip requirements file. Only "==" (or "===")
// pins give a version; other specifiers are kept as constraints. Options
// (-r, -c, -e, --hash, --index-url) are skipped; "\" continues a line.
//
// pip-compile writes "# via" notes under each requirement: a requirement
// pulled in only by other packages is transitive, one "via -r file" (or
// without notes) is direct.
func parseRequirements(src *Source, content []byte) error {
	lines := lineStarts(content)
	last := -1 // index into src.Packages of the last requirement, for "# via"
	inVia := false
	viaDirect := false
	closeVia := func() {
		if inVia && last >= 0 {
			if viaDirect {
				src.Packages[last].Relation = Direct
			} else {
				src.Packages[last].Relation = Transitive
			}
		}
		inVia, viaDirect = false, false
	}
	for i := 0; i < len(lines); i++ {
		start := lines[i]
		end := len(content)
		if i+1 < len(lines) {
			end = lines[i+1] - 1
		}
		raw := strings.TrimRight(string(content[start:end]), "\r")
		trimmed := strings.TrimSpace(raw)
		if strings.HasPrefix(trimmed, "#") {
			note := strings.TrimSpace(strings.TrimPrefix(trimmed, "#"))
			switch {
			case strings.HasPrefix(note, "via"):
				closeVia()
				inVia = true
				rest := strings.TrimSpace(strings.TrimPrefix(note, "via"))
				if strings.HasPrefix(rest, "-r") || strings.HasPrefix(rest, "-c") {
					viaDirect = true
				}
			case inVia && note != "":
				if strings.HasPrefix(note, "-r") || strings.HasPrefix(note, "-c") {
					viaDirect = true
				}
			}
			continue
		}
		closeVia()
		// Join continuation lines; the requirement is located on the first.
		text := raw
		for strings.HasSuffix(strings.TrimRight(text, " \t"), `\`) && i+1 < len(lines) {
			text = strings.TrimSuffix(strings.TrimRight(text, " \t"), `\`)
			i++
			s := lines[i]
			e := len(content)
			if i+1 < len(lines) {
				e = lines[i+1] - 1
			}
			text += " " + strings.TrimRight(string(content[s:e]), "\r")
		}
		text = stripRequirementComment(text)
		if strings.TrimSpace(text) == "" || strings.HasPrefix(strings.TrimSpace(text), "-") {
			last = -1
			continue
		}
		r, ok := parsePEP508(text)
		if !ok {
			last = -1
			continue
		}
		lead := len(raw) - len(strings.TrimLeft(raw, " \t"))
		nameStart := start + lead
		p := Package{
			Ecosystem:  PyPI,
			Name:       NormalizePyPI(r.name),
			Version:    r.pinned,
			Constraint: r.spec,
			Relation:   Direct,
			Location:   locate(src, lines, nameStart, nameStart+len(r.name)),
		}
		if r.pinned != "" {
			if j := bytes.Index(content[nameStart:end], []byte(r.pinned)); j >= 0 {
				p.Pin = Span{nameStart + j, nameStart + j + len(r.pinned)}
			}
		}
		src.Packages = append(src.Packages, p)
		last = len(src.Packages) - 1
	}
	closeVia()
	return nil
}

// stripRequirementComment drops a " #" comment; "#" inside a URL fragment
// (no space before it) stays.
func stripRequirementComment(s string) string {
	if strings.HasPrefix(strings.TrimSpace(s), "#") {
		return ""
	}
	for i := 1; i < len(s); i++ {
		if s[i] == '#' && (s[i-1] == ' ' || s[i-1] == '\t') {
			return s[:i]
		}
	}
	return s
}

// requirement is a parsed PEP 508 dependency specification.
type requirement struct {
	name   string // as written
	spec   string // version specifiers, e.g. ">=2.0,<3"; "" when none
	pinned string // the version when spec is a single "==" or "===" pin
	url    bool   // "name @ url"
}

// parsePEP508 reads "name[extras] (specifiers) ; markers" or
// "name @ url". It returns false when s does not start with a name.
func parsePEP508(s string) (requirement, bool) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, ";"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	// Options pip allows after a requirement.
	if i := strings.Index(s, " --"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	n := 0
	for n < len(s) && isNameByte(s[n]) {
		n++
	}
	if n == 0 || !isAlnum(s[0]) {
		return requirement{}, false
	}
	r := requirement{name: strings.TrimRight(s[:n], "-_.")}
	rest := strings.TrimSpace(s[n:])
	if strings.HasPrefix(rest, "[") {
		if j := strings.Index(rest, "]"); j >= 0 {
			rest = strings.TrimSpace(rest[j+1:])
		}
	}
	if strings.HasPrefix(rest, "@") {
		r.url = true
		return r, true
	}
	rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(rest, "("), ")"))
	rest = strings.Join(strings.Fields(rest), "")
	r.spec = rest
	if strings.Contains(rest, ",") {
		return r, true
	}
	for _, op := range []string{"===", "=="} {
		if v, ok := strings.CutPrefix(rest, op); ok {
			if v != "" && !strings.Contains(v, "*") {
				r.pinned = v
			}
			break
		}
	}
	return r, true
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isNameByte(c byte) bool { return isAlnum(c) || c == '-' || c == '_' || c == '.' }
