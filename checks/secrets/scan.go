package secrets

import (
	"bytes"
	"context"
	"path"
	"sort"
	"strings"

	"github.com/aisbx/aisbx/checks"
)

// scanner finds candidate secrets in bytes. It knows no allowlists beyond
// the built-in placeholder and decoy filters; Check applies the user's.
type scanner struct {
	pf        *prefilter
	keywords  []string
	kwRules   [][]*ruleSpec // keyword id -> rules it triggers
	kwLen     []int
	threshold float64
	disabled  map[string]bool
}

// match is one secret found by a rule.
type match struct {
	rule       *ruleSpec
	start, end int // the secret value itself
	// litStart..litEnd is the source text a quick fix replaces: the quoted
	// literal (quotes and string prefix included) or the bare value.
	litStart, litEnd int
	quote            byte   // the literal's quote, 0 when unquoted
	prefix           string // string prefix before the quote (Python b/r/u)
	// whole is true when the literal holds nothing but the value the fix
	// should read from the environment.
	whole bool
	name  string // the name the value is assigned to, when known
	env   string // the variable a fix reads when the name says nothing; "" = the rule's
	weak  bool   // e.g. a bad checksum: probably a made-up token
	note  string
}

// fileKind is what the scanner needs to know about a file.
type fileKind struct {
	lang     checks.Language
	base     string
	code     bool // a programming language: unquoted right-hand sides are expressions
	lockfile bool // lockfiles and go.sum: hashes everywhere, no assignments
}

func newFileKind(p string, lang checks.Language) fileKind {
	base := path.Base(strings.ReplaceAll(p, `\`, "/"))
	fk := fileKind{lang: lang, base: base, lockfile: lockfiles[base]}
	switch lang {
	case checks.LangGo, checks.LangPython, checks.LangJavaScript, checks.LangTypeScript:
		fk.code = true
	case checks.LangText:
		fk.code = codeExts[strings.ToLower(path.Ext(base))]
	}
	return fk
}

var lockfiles = map[string]bool{
	"go.sum": true, "go.work.sum": true, "package-lock.json": true, "npm-shrinkwrap.json": true,
	"yarn.lock": true, "pnpm-lock.yaml": true, "bun.lock": true, "Cargo.lock": true, "poetry.lock": true,
	"Pipfile.lock": true, "composer.lock": true, "Gemfile.lock": true, "uv.lock": true, "pdm.lock": true,
	"packages.lock.json": true, "gradle.lockfile": true, "flake.lock": true, "mix.lock": true,
}

// codeExts are languages checks.DetectLanguage calls text in which an
// unquoted right-hand side is an expression, not a value.
var codeExts = map[string]bool{
	".java": true, ".kt": true, ".kts": true, ".scala": true, ".cs": true, ".c": true, ".h": true,
	".cc": true, ".cpp": true, ".hpp": true, ".rs": true, ".swift": true, ".rb": true, ".php": true,
	".dart": true, ".lua": true, ".groovy": true, ".m": true, ".vue": true, ".svelte": true,
}

func newScanner(threshold float64, disabled map[string]bool) *scanner {
	s := &scanner{threshold: threshold, disabled: disabled}
	var keywords []string
	index := map[string]int{}
	for _, r := range rules() {
		for _, kw := range r.keywords {
			kw = strings.ToLower(kw)
			i, ok := index[kw]
			if !ok {
				i = len(keywords)
				index[kw] = i
				keywords = append(keywords, kw)
				s.kwRules = append(s.kwRules, nil)
				s.kwLen = append(s.kwLen, len(kw))
			}
			s.kwRules[i] = append(s.kwRules[i], r)
		}
	}
	s.keywords = keywords
	s.pf = newPrefilter(keywords)
	return s
}

// scan returns the secrets in b, at most one per span: where rules overlap
// the more specific one wins.
func (s *scanner) scan(ctx context.Context, b []byte, fk fileKind) ([]match, error) {
	hits := s.pf.scan(b, make([]hit, 0, 64))
	st := newScanState()
	var out []match
	// The assignment lexer reads a name (and its value) once: hits inside
	// what it already read are skipped.
	lexedTo := 0
	for n, h := range hits {
		if n%256 == 255 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		end := int(h.end)
		start := end - s.kwLen[h.kw]
		for _, r := range s.kwRules[h.kw] {
			// The assignment lexer also finds AWS secret keys: it runs
			// unless both of its rules are off.
			if s.disabled[r.id] && (r.kind != kindAssign || s.disabled[ruleAWSSecretKey]) {
				continue
			}
			var m match
			var ok bool
			switch r.kind {
			case kindToken:
				m, ok = st.tokenAt(r, b, start)
			case kindAssign:
				if fk.lockfile {
					continue
				}
				if start < lexedTo {
					continue
				}
				var a assignment
				a, ok = parseAssignment(b, start, end, fk)
				lexedTo = max(lexedTo, a.nameEnd, a.valEnd)
				if !ok {
					continue
				}
				m, ok = s.judge(b, a)
			case kindURL:
				m, ok = urlAt(b, start)
			case kindPrivateKey:
				m, ok = st.privateKeyAt(b, start)
			case kindAzure:
				m, ok = azureKeyAt(b, end)
			}
			if ok && !s.disabled[m.rule.id] {
				out = append(out, m)
			}
		}
	}
	return resolveOverlaps(out), nil
}

// resolveOverlaps keeps, of matches whose secrets overlap, the one from the
// rule listed first in rules() (a provider beats generic-secret).
func resolveOverlaps(ms []match) []match {
	if len(ms) < 2 {
		return ms
	}
	rank := func(m match) int {
		for i, r := range rules() {
			if r == m.rule {
				return i
			}
		}
		return len(rules())
	}
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].start != ms[j].start {
			return ms[i].start < ms[j].start
		}
		return rank(ms[i]) < rank(ms[j])
	})
	out := ms[:0]
	for _, m := range ms {
		dup := false
		for k := len(out) - 1; k >= 0 && out[k].end > m.start; k-- {
			if rank(out[k]) <= rank(m) {
				dup = true
				break
			}
			// m is more specific than an earlier overlapping match: replace it.
			out = append(out[:k], out[k+1:]...)
		}
		if !dup {
			out = append(out, m)
		}
	}
	return out
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// scanState remembers, within one scan, work that later hits would
// repeat, so that crafted input (a line of "eyJ.eyJ.eyJ…", thousands of
// BEGIN lines without an END) stays linear.
type scanState struct {
	runEnd []int // by rule: where the last token run ended
	// The first "-----END" at or after endFrom is at endAt; -1 means none
	// before endLimit.
	endFrom, endAt, endLimit int
}

func newScanState() *scanState {
	return &scanState{runEnd: make([]int, len(rules())), endFrom: -1, endAt: -1}
}

// nextPEMEnd finds the first "-----END" in b[from:limit].
func (st *scanState) nextPEMEnd(b []byte, from, limit int) int {
	known := st.endFrom >= 0 && st.endFrom <= from
	if known && st.endAt >= from {
		if st.endAt+8 <= limit {
			return st.endAt
		}
		return -1
	}
	search := from
	if known && st.endAt < 0 && st.endLimit > from {
		search = max(from, st.endLimit-8) // b[from:endLimit] has no END
	}
	st.endFrom, st.endLimit = from, limit
	st.endAt = -1
	if i := bytes.Index(b[search:limit], []byte("-----END")); i >= 0 {
		st.endAt = search + i
	}
	return st.endAt
}

// tokenAt matches a provider token that starts at start: the longest run
// of the rule's token characters must match the rule's format as a whole.
func (st *scanState) tokenAt(r *ruleSpec, b []byte, start int) (match, bool) {
	if start > 0 && isWordByte(b[start-1]) && !afterEscape(b, start) {
		return match{}, false
	}
	if start < st.runEnd[r.idx] {
		return match{}, false // inside the previous candidate of this rule
	}
	end := start
	limit := min(len(b), start+r.maxLen+1)
	for end < limit && r.chars[b[end]] {
		end++
	}
	st.runEnd[r.idx] = end
	if end-start > r.maxLen {
		return match{}, false
	}
	// A run may end in characters that only punctuate it ("ghp_x." at the
	// end of a sentence): retry without a trailing '.' or '-'.
	tok := b[start:end]
	for !r.matches(tok) {
		if len(tok) == 0 || (tok[len(tok)-1] != '.' && tok[len(tok)-1] != '=') || !strings.ContainsRune(r.tail, rune(tok[len(tok)-1])) {
			return match{}, false
		}
		tok = tok[:len(tok)-1]
	}
	end = start + len(tok)
	if isPlaceholder(tok) {
		return match{}, false
	}
	m := match{rule: r, start: start, end: end}
	if r.validate != nil {
		ok, weak, note := r.validate(tok)
		if !ok {
			return match{}, false
		}
		m.weak, m.note = weak, note
	}
	setLiteral(b, &m, start, end)
	return m, true
}

func (r *ruleSpec) matches(tok []byte) bool {
	if r.matchFn != nil {
		return r.re.Match(tok) && r.matchFn(tok)
	}
	return r.re.Match(tok)
}

// afterEscape reports whether b[i-2:i] is a backslash escape such as \n,
// which ends the previous word in a string literal.
func afterEscape(b []byte, i int) bool {
	return i >= 2 && b[i-2] == '\\' && strings.IndexByte("nrt", b[i-1]) >= 0
}

// setLiteral records the literal around the value b[vs:ve] (the token, URL
// or connection string a fix would read from the environment) and the name
// it is assigned to.
func setLiteral(b []byte, m *match, vs, ve int) {
	m.litStart, m.litEnd = vs, ve
	if vs > 0 && ve < len(b) {
		if q := b[vs-1]; (q == '"' || q == '\'' || q == '`') && b[ve] == q {
			m.quote = q
			m.litStart, m.litEnd = vs-1, ve+1
			m.whole = true
			// Python string prefixes: b"...", r'...', u"...".
			if p := vs - 1; p > 0 && strings.IndexByte("bBrRuU", b[p-1]) >= 0 && (p == 1 || !isWordByte(b[p-2])) {
				m.prefix = string(b[p-1])
				m.litStart--
			}
		}
	}
	if m.quote == 0 {
		// A bare value is only "whole" when it is a full word of its line.
		m.whole = (vs == 0 || isSpaceOrOp(b[vs-1])) && (ve == len(b) || isSpace(b[ve]))
	}
	m.name = nameBefore(b, m.litStart)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isSpaceOrOp(c byte) bool { return isSpace(c) || c == '=' || c == ':' }
