package secrets

import (
	"errors"
	"path"
	"strings"
)

// glob is one gitignore-style allowlist path: "testdata/", "*.pem",
// "/docs/examples/**", "**/fixtures/*.json". As in .gitignore, a pattern
// without a slash matches a name at any depth, one with a slash is anchored
// at the workspace root, a trailing slash matches directories only, and a
// pattern that matches a directory covers everything in it. Negation (!) is
// not supported: an allowlist only adds.
type glob struct {
	segs     []string
	anchored bool
	dirOnly  bool
}

func compileGlob(p string) (glob, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return glob{}, errors.New("empty pattern")
	}
	if strings.HasPrefix(p, "!") {
		return glob{}, errors.New("negated patterns are not supported in an allowlist")
	}
	g := glob{}
	if strings.HasSuffix(p, "/") {
		g.dirOnly = true
		p = strings.TrimRight(p, "/")
	}
	g.anchored = strings.Contains(p, "/")
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return glob{}, errors.New("pattern matches the whole workspace")
	}
	g.segs = strings.Split(p, "/")
	for _, s := range g.segs {
		if _, err := path.Match(s, ""); err != nil {
			return glob{}, err
		}
	}
	return g, nil
}

// match reports whether rel (slash-separated, relative to the root) or one
// of its parent directories matches.
func (g glob) match(rel string) bool {
	parts := strings.Split(strings.TrimPrefix(rel, "./"), "/")
	if g.anchored {
		return g.matchSegs(g.segs, parts)
	}
	for i := range parts {
		if g.matchSegs(g.segs, parts[i:]) {
			return true
		}
	}
	return false
}

func (g glob) matchSegs(pat, parts []string) bool {
	if len(pat) == 0 {
		// Everything in a matched directory is matched; a dir-only pattern
		// must have matched a directory, so something must be left.
		return len(parts) > 0 || !g.dirOnly
	}
	if pat[0] == "**" {
		for i := 0; i <= len(parts); i++ {
			if g.matchSegs(pat[1:], parts[i:]) {
				return true
			}
		}
		return false
	}
	if len(parts) == 0 {
		return false
	}
	if ok, _ := path.Match(pat[0], parts[0]); !ok {
		return false
	}
	return g.matchSegs(pat[1:], parts[1:])
}
