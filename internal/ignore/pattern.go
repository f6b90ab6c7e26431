package ignore

import (
	"regexp"
	"strings"
)

// pattern is one line of a .gitignore file.
type pattern struct {
	base    string // directory of the .gitignore, slash-separated, relative to the root ("" for the root)
	negate  bool
	dirOnly bool
	re      *regexp.Regexp
}

// parsePattern turns a gitignore line into a pattern. It returns false for
// blank lines and comments.
func parsePattern(base, line string) (pattern, bool) {
	line = strings.TrimRight(line, "\r")
	// Trailing spaces are ignored unless escaped.
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, `\ `) {
		line = line[:len(line)-1]
	}
	if line == "" || strings.HasPrefix(line, "#") {
		return pattern{}, false
	}
	p := pattern{base: base}
	if strings.HasPrefix(line, "!") {
		p.negate = true
		line = line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return pattern{}, false
	}
	// A slash at the start or in the middle anchors the pattern to base;
	// otherwise it matches a name at any depth below base.
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")

	var re strings.Builder
	re.WriteString("^")
	if !anchored {
		re.WriteString("(?:.*/)?")
	}
	re.WriteString(globToRegexp(line))
	re.WriteString("$")
	compiled, err := regexp.Compile(re.String())
	if err != nil {
		return pattern{}, false
	}
	p.re = compiled
	return p, true
}

// globToRegexp translates gitignore glob syntax (*, ?, [...], **) into a
// regular expression body.
func globToRegexp(glob string) string {
	var b strings.Builder
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch c {
		case '*':
			if i+1 < len(glob) && glob[i+1] == '*' {
				// "**/" matches zero or more directories, "/**" everything inside.
				atStart := i == 0 || glob[i-1] == '/'
				j := i + 2
				if atStart && j < len(glob) && glob[j] == '/' {
					b.WriteString("(?:.*/)?")
					i = j
					continue
				}
				if atStart && j == len(glob) {
					b.WriteString(".*")
					i = j
					continue
				}
			}
			b.WriteString("[^/]*")
		case '?':
			b.WriteString("[^/]")
		case '[':
			end := strings.IndexByte(glob[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := glob[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		case '\\':
			if i+1 < len(glob) {
				i++
				b.WriteString(regexp.QuoteMeta(string(glob[i])))
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// match reports whether rel (slash-separated, relative to the root) matches.
func (p pattern) match(rel string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if p.base != "" {
		if !strings.HasPrefix(rel, p.base+"/") {
			return false
		}
		rel = rel[len(p.base)+1:]
	}
	return p.re.MatchString(rel)
}
