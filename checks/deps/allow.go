package deps

import "strings"

// allowList holds Options.Allow. Entries are compared as written and, for
// Python, after PEP 503 normalisation, so "PyYAML" also allows "pyyaml".
type allowList map[string]bool

func newAllowList(names []string) allowList {
	a := allowList{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		a[n] = true
		a[pep503(n)] = true
	}
	return a
}

// path reports whether a Go or npm name, or one of its parents at a "/"
// boundary, is allowed.
func (a allowList) path(p string) bool {
	if len(a) == 0 {
		return false
	}
	for {
		if a[p] {
			return true
		}
		i := strings.LastIndexByte(p, '/')
		if i <= 0 {
			return false
		}
		p = p[:i]
	}
}

// python reports whether a dotted module path, one of its parents, or the
// distribution name dist is allowed.
func (a allowList) python(module, dist string) bool {
	if len(a) == 0 {
		return false
	}
	if dist != "" && a[pep503(dist)] {
		return true
	}
	for {
		if a[module] || a[pep503(module)] {
			return true
		}
		i := strings.LastIndexByte(module, '.')
		if i <= 0 {
			return false
		}
		module = module[:i]
	}
}
