package deps

import (
	"strconv"
	"strings"
)

// lookalike returns the popular name that name imitates, or "" when name is
// popular itself, too short, or not within maxDist edits (or one visual
// confusion) of a target.
func (p *popList) lookalike(name string, maxDist int) string {
	if maxDist < 0 {
		return ""
	}
	key := popKey(p.eco, name)
	if p.rankOf[key] > 0 || len(key) < minTargetLen {
		return ""
	}
	jk := strconv.Itoa(maxDist) + "\x00" + key
	if v, ok := p.judged.Load(jk); ok {
		return v.(string)
	}
	best, bestDist := -1, maxDist+1
	own := owner(p.eco, key)
	consider := func(i int32, d int) {
		if own != "" && owner(p.eco, p.keys[i]) == own {
			return
		}
		if d < bestDist || (d == bestDist && int(i) < best) {
			best, bestDist = int(i), d
		}
	}
	// One visual confusion (l0dash, crossenv, babelcore for @babel/core)
	// counts as one edit.
	for _, i := range p.skel[skeleton(key)] {
		if p.keys[i] != key {
			consider(i, 1)
		}
	}
	for l := len(key) - maxDist; l <= len(key)+maxDist; l++ {
		for _, i := range p.byLen[l] {
			if d := editDistance(key, p.keys[i], maxDist); d <= maxDist {
				consider(i, d)
			}
		}
	}
	out := ""
	if best >= 0 {
		out = p.names[best]
	}
	p.judged.Store(jk, out)
	return out
}

// skeleton folds the confusions typosquatters rely on: separators (- _ . /
// and a scope's @), digits that look like letters, "rn" for "m" and "vv" for
// "w".
func skeleton(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '-', '_', '.', '/', '@':
			continue
		case '0':
			c = 'o'
		case '1':
			c = 'l'
		case '5':
			c = 's'
		case 'r':
			if i+1 < len(s) && s[i+1] == 'n' {
				c = 'm'
				i++
			}
		case 'v':
			if i+1 < len(s) && s[i+1] == 'v' {
				c = 'w'
				i++
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// editDistance is the Damerau-Levenshtein distance (optimal string
// alignment: adjacent transpositions count one) between a and b, or
// max+1 as soon as it must exceed max.
func editDistance(a, b string, max int) int {
	la, lb := len(a), len(b)
	if d := la - lb; d > max || -d > max {
		return max + 1
	}
	if max == 1 {
		return distanceUpTo1(a, b)
	}
	if la == 0 || lb == 0 {
		return la + lb
	}
	var buf [3][64]int
	var rows [3][]int
	if lb+1 <= 64 {
		rows = [3][]int{buf[0][:lb+1], buf[1][:lb+1], buf[2][:lb+1]}
	} else {
		rows = [3][]int{make([]int, lb+1), make([]int, lb+1), make([]int, lb+1)}
	}
	prev2, prev, cur := rows[0], rows[1], rows[2]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= la; i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= lb; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[lb]
}

// distanceUpTo1 is editDistance for max 1 without the table: after the
// common prefix, what is left must differ by one insertion, deletion,
// substitution or adjacent swap.
func distanceUpTo1(a, b string) int {
	if a == b {
		return 0
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	ra, rb := a[p:], b[p:]
	switch {
	case len(ra) == len(rb):
		if ra[1:] == rb[1:] {
			return 1
		}
		if len(ra) >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra[2:] == rb[2:] {
			return 1
		}
	case len(ra) == len(rb)+1:
		if ra[1:] == rb {
			return 1
		}
	case len(rb) == len(ra)+1:
		if rb[1:] == ra {
			return 1
		}
	}
	return 2
}

// nearSet is a small set of names (declared or installed) prepared for
// near-miss searches: lower case and skeletons computed once.
type nearSet struct {
	names, lows, skels []string
}

func newNearSet(names []string) *nearSet {
	s := &nearSet{names: names, lows: make([]string, len(names)), skels: make([]string, len(names))}
	for i, n := range names {
		s.lows[i] = strings.ToLower(n)
		s.skels[i] = skeleton(s.lows[i])
	}
	return s
}

// closest returns the name within the check's edit distance (or one visual
// confusion) of name, case-insensitively; "" when none is, or when name is
// in the set.
func (c *Check) closest(name string, set *nearSet) string {
	if c.dist < 0 || len(name) < 3 || set == nil {
		return ""
	}
	low := strings.ToLower(name)
	skel := skeleton(low)
	best, bestDist := "", c.dist+1
	for i, cl := range set.lows {
		if cl == low {
			return ""
		}
		d := editDistance(low, cl, c.dist)
		if d > c.dist && set.skels[i] == skel {
			d = c.dist
		}
		if d < bestDist || (d == bestDist && set.names[i] < best) {
			best, bestDist = set.names[i], d
		}
	}
	return best
}

// popularLookalike returns the popular package name is imitating, or "".
func (c *Check) popularLookalike(e ecosystem, name string) string {
	return popularity(e).lookalike(name, c.dist)
}

// versionSibling reports whether name and the popular target differ only at
// the end (pyside and pyside6, pydy and pydyf) or only in digits (pyqt4 and
// pyqt6). Such a name is more often an older or sibling package than a
// typo; with nothing installed or declared to go by, it is left alone. A
// doubled last letter (expresss) is a typo all the same.
func versionSibling(name, target string) bool {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	a, b := norm(name), norm(target)
	if len(a) > len(b) {
		a, b = b, a
	}
	if tail, ok := strings.CutPrefix(b, a); ok && a != "" {
		return strings.Trim(tail, a[len(a)-1:]) != ""
	}
	noDigits := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return -1
			}
			return r
		}, s)
	}
	return noDigits(a) == noDigits(b)
}
