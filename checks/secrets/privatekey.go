package secrets

import (
	"bytes"
	"regexp"
)

var pemBegin = regexp.MustCompile(`^-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----`)

// privateKeyAt finds a private key block starting at start. The block must
// end (-----END ...-----) within 64 KiB and hold at least 64 base64
// characters, so "-----BEGIN RSA PRIVATE KEY-----\n...\n" in a doc is not one.
func (st *scanState) privateKeyAt(b []byte, start int) (match, bool) {
	head := pemBegin.Find(b[start:min(len(b), start+80)])
	if head == nil {
		return match{}, false
	}
	bodyStart := start + len(head)
	limit := min(len(b), bodyStart+64<<10)
	endMark := st.nextPEMEnd(b, bodyStart, limit)
	if endMark < 0 {
		return match{}, false
	}
	close := bytes.Index(b[endMark+8:min(len(b), endMark+80)], []byte("-----"))
	if close < 0 {
		return match{}, false
	}
	end := endMark + 8 + close + 5
	body := b[bodyStart:endMark]
	n := 0
	for _, c := range body {
		if isWordByte(c) && c != '_' || c == '+' || c == '/' {
			n++
		}
	}
	if n < 64 || bytes.Contains(body, []byte("...")) || bytes.Contains(body, []byte("<")) || isPlaceholder(body) {
		return match{}, false
	}
	m := match{rule: ruleByID(rulePrivateKey), start: start, end: end}
	setLiteral(b, &m, start, end)
	return m, true
}
