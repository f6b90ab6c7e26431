package secrets

import (
	"bytes"
	"strings"
)

// urlAt finds a password in the user-info of a URL whose "://" is at sep:
// postgres://user:pass@host/db (aisbx:ignore[url-password]: the example).
// gitleaks has no rule for it.
//
// The password may itself hold '@', '#' or ':' (people paste them unencoded),
// so the host starts after the last '@' before the first '/' of the rest.
func urlAt(b []byte, sep int) (match, bool) {
	s := sep
	for s > 0 && sep-s < 40 && isSchemeByte(b[s-1]) {
		s--
	}
	for s < sep && !isLetter(b[s]) {
		s++
	}
	if sep-s < 2 {
		return match{}, false
	}
	e := sep + 3
	for e < len(b) && e-sep < maxURLLen && !isURLStop(b[e]) {
		e++
	}
	rest := b[sep+3 : e]
	auth := rest
	if slash := bytes.IndexByte(rest, '/'); slash >= 0 {
		auth = rest[:slash]
	}
	at := bytes.LastIndexByte(auth, '@')
	if at < 0 {
		return match{}, false
	}
	userinfo, host := auth[:at], auth[at+1:]
	colon := bytes.IndexByte(userinfo, ':')
	if colon < 0 || len(host) == 0 || !(isWordByte(host[0]) || host[0] == '[') {
		return match{}, false // user@host: no password
	}
	user, pass := userinfo[:colon], userinfo[colon+1:]
	if len(pass) < 3 || urlPlaceholder(user, pass) || exampleHost(host) {
		return match{}, false
	}
	ps := sep + 3 + colon + 1
	m := match{rule: ruleByID(ruleURLPassword), start: ps, end: ps + len(pass), env: schemeEnv(b[s:sep])}
	setLiteral(b, &m, s, e)
	return m, true
}

// maxURLLen bounds how far a URL is read: a minified file can be one line.
const maxURLLen = 2048

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func isSchemeByte(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9' || c == '+' || c == '.' || c == '-'
}

func isURLStop(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '`', '<', '>', '\\':
		return true
	}
	return false
}

// defaultPasswords are words written where a real password would go in
// documentation and templates.
var defaultPasswords = map[string]bool{
	"password": true, "passwd": true, "pwd": true, "secret": true, "changeme": true, "mypassword": true,
	"yourpassword": true, "pw": true, "x": true, "xxx": true, "token": true, "apikey": true, "api_key": true,
	"user": true, "username": true, "foo:bar": true, "aladdin:opensesame": true, "aladdin:open sesame": true,
}

// urlPlaceholder reports passwords that are templates (${DB_PASS}, {pw},
// %s, $PASS, <password>), placeholder words, or equal to the user name
// (guest:guest, postgres:postgres: well-known local defaults).
func urlPlaceholder(user, pass []byte) bool {
	switch pass[0] {
	case '$', '{', '%', '<', '[', '*', ':':
		return true
	}
	if bytes.Equal(user, pass) || defaultPasswords[strings.ToLower(string(pass))] || defaultPasswords[strings.ToLower(string(user)+":"+string(pass))] {
		return true
	}
	if bytes.Contains(pass, []byte("{")) || bytes.Contains(pass, []byte("$")) || bytes.Contains(pass, []byte("***")) {
		return true
	}
	return isPlaceholder(pass)
}

// exampleHost reports the host names RFC 2606 and RFC 6761 reserve for
// documentation and tests: credentials for them are examples.
func exampleHost(host []byte) bool {
	h := strings.ToLower(string(host))
	if i := strings.IndexAny(h, ":/?#"); i >= 0 {
		h = h[:i]
	}
	for _, d := range []string{"example.com", "example.org", "example.net"} {
		if h == d || strings.HasSuffix(h, "."+d) {
			return true
		}
	}
	for _, tld := range []string{".example", ".test", ".invalid"} {
		if strings.HasSuffix(h, tld) {
			return true
		}
	}
	return false
}

// schemeEnv names the variable that conventionally holds a URL of a scheme.
func schemeEnv(scheme []byte) string {
	switch sc := strings.ToLower(string(scheme)); {
	case strings.HasPrefix(sc, "redis"):
		return "REDIS_URL"
	case strings.HasPrefix(sc, "amqp"):
		return "AMQP_URL"
	case strings.HasPrefix(sc, "mongodb"):
		return "MONGODB_URI"
	case sc == "http" || sc == "https":
		return "SERVICE_URL"
	case sc == "ftp" || sc == "sftp":
		return "FTP_URL"
	}
	return "DATABASE_URL"
}
