package deps

import (
	"strings"
	"sync"
)

// ecosystem is a package registry.
type ecosystem int

const (
	ecoGo ecosystem = iota
	ecoPyPI
	ecoNPM
	numEcosystems
)

func (e ecosystem) String() string {
	switch e {
	case ecoGo:
		return "Go"
	case ecoPyPI:
		return "PyPI"
	case ecoNPM:
		return "npm"
	}
	return "unknown"
}

// Typosquatters aim at the most-downloaded packages. A new name is suspect
// only when it is off the shipped list (so below its last entry: about 1M
// downloads a month on npm, rank 15,000 on PyPI) while its look-alike is
// among the first targetRanks (about 30M a month on npm, the top 3,000 on
// PyPI), so the target is well over ten times as popular. Names on the list
// are established and never suspect: that is what keeps requests/grequests
// and react/preact quiet. The Go list is short and hand-ranked, so all of it
// are targets.
var targetRanks = [numEcosystems]int{ecoGo: 1 << 30, ecoPyPI: 3000, ecoNPM: 3000}

var popularFiles = [numEcosystems]string{ecoGo: "popular-go.txt", ecoPyPI: "popular-pypi.txt", ecoNPM: "popular-npm.txt"}

// popList is one ecosystem's popular names, most popular first.
type popList struct {
	eco    ecosystem
	names  []string
	keys   []string
	rankOf map[string]int32 // key -> 1-based rank
	byLen  map[int][]int32  // key length -> target indices
	skel   map[string][]int32
	judged sync.Map // judgeKey -> string (the target, or "")
}

var pops [numEcosystems]struct {
	once sync.Once
	l    *popList
}

// popularity returns an ecosystem's list, loading it on first use.
func popularity(e ecosystem) *popList {
	p := &pops[e]
	p.once.Do(func() { p.l = loadPopList(e, dataLines(popularFiles[e])) })
	return p.l
}

func loadPopList(e ecosystem, names []string) *popList {
	p := &popList{eco: e, names: names, keys: make([]string, len(names)),
		rankOf: make(map[string]int32, len(names)), byLen: map[int][]int32{}, skel: map[string][]int32{}}
	for i, n := range names {
		k := popKey(e, n)
		p.keys[i] = k
		if _, dup := p.rankOf[k]; !dup {
			p.rankOf[k] = int32(i + 1)
		}
		if i < targetRanks[e] && len(k) >= minTargetLen {
			p.byLen[len(k)] = append(p.byLen[len(k)], int32(i))
			s := skeleton(k)
			p.skel[s] = append(p.skel[s], int32(i))
		}
	}
	return p
}

// minTargetLen keeps short names out: almost every three-letter string is
// one edit from some popular three-letter package.
const minTargetLen = 4

// rank returns the 1-based popularity rank of a name, 0 when unknown.
func (p *popList) rank(name string) int { return int(p.rankOf[popKey(p.eco, name)]) }

// popKey is how names compare within an ecosystem: PEP 503 for PyPI, lower
// case for npm, and for Go lower case without the major-version suffix.
func popKey(e ecosystem, name string) string {
	switch e {
	case ecoPyPI:
		return pep503(name)
	case ecoGo:
		return goFamily(strings.ToLower(name))
	}
	return strings.ToLower(name)
}

// goFamily strips a Go module path's major version: /v2, or gopkg.in's .v2.
func goFamily(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 && isMajor(p[i+1:], 'v') {
		return p[:i]
	}
	if strings.HasPrefix(p, "gopkg.in/") {
		if i := strings.LastIndex(p, ".v"); i > 0 && isMajor(p[i+1:], 'v') {
			return p[:i]
		}
	}
	return p
}

func isMajor(s string, v byte) bool {
	if len(s) < 2 || s[0] != v {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// owner is who controls a name: an npm scope, or a Go module's host and
// account. Names with the same owner cannot squat each other.
func owner(e ecosystem, key string) string {
	switch e {
	case ecoNPM:
		if strings.HasPrefix(key, "@") {
			if i := strings.IndexByte(key, '/'); i > 0 {
				return key[:i]
			}
		}
	case ecoGo:
		parts := strings.SplitN(key, "/", 3)
		switch parts[0] {
		case "github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "gitee.com", "git.sr.ht", "gopkg.in":
			if len(parts) >= 3 {
				return parts[0] + "/" + parts[1]
			}
		}
		return parts[0]
	}
	return ""
}
