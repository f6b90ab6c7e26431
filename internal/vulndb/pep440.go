package vulndb

import (
	"cmp"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// PEP440 is a Python package version as PEP 440 defines it:
// [N!]N(.N)*[{a|b|rc}N][.postN][.devN][+local].
type PEP440 struct {
	Epoch   uint64
	Release []uint64 // trailing zeros dropped: 1.0 == 1.0.0
	PreKind int      // 0 none, 1 a, 2 b, 3 rc
	Pre     uint64
	HasPost bool
	Post    uint64
	HasDev  bool
	Dev     uint64
	Local   []string // lower case, split on . - _
}

// pep440Pattern is the pattern PEP 440's appendix gives for parsing
// versions with their permitted alternative spellings.
var pep440Pattern = regexp.MustCompile(`(?i)^\s*v?` +
	`(?:(?P<epoch>[0-9]+)!)?` +
	`(?P<release>[0-9]+(?:\.[0-9]+)*)` +
	`(?P<pre>[-_\.]?(?P<pre_l>alpha|beta|preview|pre|rc|a|b|c)[-_\.]?(?P<pre_n>[0-9]+)?)?` +
	`(?P<post>(?:-(?P<post_n1>[0-9]+))|(?:[-_\.]?(?P<post_l>post|rev|r)[-_\.]?(?P<post_n2>[0-9]+)?))?` +
	`(?P<dev>[-_\.]?(?P<dev_l>dev)[-_\.]?(?P<dev_n>[0-9]+)?)?` +
	`(?:\+(?P<local>[a-z0-9]+(?:[-_\.][a-z0-9]+)*))?\s*$`)

var pep440Groups = func() map[string]int {
	m := map[string]int{}
	for i, n := range pep440Pattern.SubexpNames() {
		if n != "" {
			m[n] = i
		}
	}
	return m
}()

// ParsePEP440 parses a PEP 440 version, accepting the alternative
// spellings the PEP allows ("1.0-alpha1", "1.0.post", "1.0-1").
func ParsePEP440(s string) (PEP440, error) {
	m := pep440Pattern.FindStringSubmatch(s)
	if m == nil {
		return PEP440{}, fmt.Errorf("%q is not a PEP 440 version", s)
	}
	g := func(name string) string { return m[pep440Groups[name]] }
	var v PEP440
	var err error
	num := func(s string) uint64 {
		if s == "" || err != nil {
			return 0
		}
		n, e := strconv.ParseUint(s, 10, 64)
		if e != nil {
			err = fmt.Errorf("%q: number %s out of range", s, s)
		}
		return n
	}
	v.Epoch = num(g("epoch"))
	for _, part := range strings.Split(g("release"), ".") {
		v.Release = append(v.Release, num(part))
	}
	for len(v.Release) > 1 && v.Release[len(v.Release)-1] == 0 {
		v.Release = v.Release[:len(v.Release)-1]
	}
	if g("pre") != "" {
		switch strings.ToLower(g("pre_l")) {
		case "a", "alpha":
			v.PreKind = 1
		case "b", "beta":
			v.PreKind = 2
		default: // c, rc, pre, preview
			v.PreKind = 3
		}
		v.Pre = num(g("pre_n"))
	}
	if g("post") != "" {
		v.HasPost = true
		v.Post = num(g("post_n1") + g("post_n2"))
	}
	if g("dev") != "" {
		v.HasDev = true
		v.Dev = num(g("dev_n"))
	}
	if l := g("local"); l != "" {
		v.Local = strings.FieldsFunc(strings.ToLower(l), func(r rune) bool { return r == '.' || r == '-' || r == '_' })
	}
	if err != nil {
		return PEP440{}, err
	}
	return v, nil
}

func (v PEP440) compare(o version) int { return v.Compare(o.(PEP440)) }

// Compare orders versions as PEP 440 does (and pip's packaging library):
// epoch, then release, then pre-release (a dev release of a final version
// sorts before its pre-releases), then post-release, then dev-release,
// then the local label, where a version without one sorts first.
func (v PEP440) Compare(o PEP440) int {
	if c := cmp.Compare(v.Epoch, o.Epoch); c != 0 {
		return c
	}
	n := max(len(v.Release), len(o.Release))
	for i := 0; i < n; i++ {
		var a, b uint64
		if i < len(v.Release) {
			a = v.Release[i]
		}
		if i < len(o.Release) {
			b = o.Release[i]
		}
		if c := cmp.Compare(a, b); c != 0 {
			return c
		}
	}
	if c := cmpKey(v.preKey(), o.preKey()); c != 0 {
		return c
	}
	if c := cmpKey(optKey(v.HasPost, v.Post, -1), optKey(o.HasPost, o.Post, -1)); c != 0 {
		return c
	}
	if c := cmpKey(optKey(v.HasDev, v.Dev, +1), optKey(o.HasDev, o.Dev, +1)); c != 0 {
		return c
	}
	return cmpLocal(v.Local, o.Local)
}

// key is an orderable value with infinities: inf<0 is below every
// finite value, inf>0 above.
type key struct {
	inf  int
	a, b uint64
}

func cmpKey(x, y key) int {
	if x.inf != y.inf {
		return cmp.Compare(x.inf, y.inf)
	}
	if x.inf != 0 {
		return 0
	}
	if c := cmp.Compare(x.a, y.a); c != 0 {
		return c
	}
	return cmp.Compare(x.b, y.b)
}

func (v PEP440) preKey() key {
	switch {
	case v.PreKind == 0 && !v.HasPost && v.HasDev:
		return key{inf: -1} // 1.0.dev1 < 1.0a1
	case v.PreKind == 0:
		return key{inf: +1} // 1.0rc1 < 1.0
	}
	return key{a: uint64(v.PreKind), b: v.Pre}
}

func optKey(has bool, n uint64, absent int) key {
	if !has {
		return key{inf: absent}
	}
	return key{a: n}
}

// cmpLocal orders local labels segment by segment: numeric segments sort
// above alphanumeric ones, alphanumeric ones compare as text, and a
// shorter label that is a prefix of a longer one sorts first.
func cmpLocal(a, b []string) int {
	if len(a) == 0 || len(b) == 0 {
		return cmp.Compare(len(a), len(b))
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		na, ea := strconv.ParseUint(a[i], 10, 64)
		nb, eb := strconv.ParseUint(b[i], 10, 64)
		switch {
		case ea == nil && eb == nil:
			if c := cmp.Compare(na, nb); c != 0 {
				return c
			}
		case ea == nil:
			return 1
		case eb == nil:
			return -1
		default:
			if c := strings.Compare(a[i], b[i]); c != 0 {
				return c
			}
		}
	}
	return cmp.Compare(len(a), len(b))
}
