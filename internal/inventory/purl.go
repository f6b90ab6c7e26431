package inventory

import (
	"net/url"
	"strings"
)

// PURL returns the package URL (https://github.com/package-url/purl-spec)
// of p: "pkg:npm/%40babel/core@7.24.0", "pkg:pypi/requests@2.31.0",
// "pkg:golang/golang.org/x/net@v0.25.0".
func (p Package) PURL() string {
	var typ string
	switch p.Ecosystem {
	case Go:
		typ = "golang"
	case PyPI:
		typ = "pypi"
	case NPM:
		typ = "npm"
	default:
		typ = strings.ToLower(string(p.Ecosystem))
	}
	var b strings.Builder
	b.WriteString("pkg:")
	b.WriteString(typ)
	b.WriteByte('/')
	segs := strings.Split(p.Name, "/")
	for i, s := range segs {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(purlEscape(s))
	}
	if p.Version != "" {
		b.WriteByte('@')
		b.WriteString(purlEscape(p.Version))
	}
	return b.String()
}

// purlEscape percent-encodes a purl segment; "@" must be encoded (npm
// scopes), which url.PathEscape leaves alone.
func purlEscape(s string) string {
	return strings.ReplaceAll(url.PathEscape(s), "@", "%40")
}
