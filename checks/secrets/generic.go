package secrets

import (
	"bytes"
	"encoding/base64"
	"strings"
)

// DefaultEntropyThreshold is the Shannon entropy, in bits per character, a
// value assigned to a secret-like name must reach to be reported by
// generic-secret. 3.0 keeps short real passwords ("hunter#2@Xq9!zL" is 3.9,
// a random 16-character hex string about 3.5) and drops words and
// identifiers ("production" is 2.6, "mypassword" 2.9). Provider rules do not
// use it: their formats say enough.
const DefaultEntropyThreshold = 3.0

// maxValueLen bounds a generic value; longer ones are blobs (certificates,
// base64 data), and the lexer stops looking after it.
const maxValueLen = 512

// secretWords are name words that say "the value is a secret".
var secretWords = map[string]bool{
	"password": true, "passwd": true, "passphrase": true, "pwd": true,
	"secret": true, "token": true, "credential": true, "credentials": true, "creds": true,
	"apikey": true, "authorization": true, "auth": true, "bearer": true,
	"privatekey": true, "accesskey": true, "secretkey": true, "clientsecret": true,
}

// secretSuffixes catch run-together names: dbpassword, githubtoken.
var secretSuffixes = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "secretkey", "privatekey"}

// keyQualifiers make "key" a secret word when they come right before it:
// api_key, signing_key, but not primary_key or sort_key.
var keyQualifiers = map[string]bool{
	"api": true, "access": true, "secret": true, "private": true, "signing": true, "sign": true,
	"encryption": true, "encrypt": true, "enc": true, "master": true, "client": true, "app": true,
	"application": true, "auth": true, "account": true, "service": true, "admin": true, "session": true,
	"shared": true, "hmac": true, "jwt": true, "webhook": true, "license": true, "subscription": true,
	"storage": true, "consumer": true, "crypto": true, "cipher": true, "aes": true, "root": true,
	"deploy": true, "ssh": true, "write": true, "rest": true, "live": true, "server": true, "x": true,
}

// neutralWords may follow the secret word without changing what the name
// holds: db_password_prod, apiKeyValue. Anything else (password_file,
// token_url, secret_name, max_tokens) means the value is not the secret.
var neutralWords = map[string]bool{
	"value": true, "val": true, "str": true, "string": true, "raw": true, "plain": true, "plaintext": true,
	"b64": true, "base64": true, "hex": true, "data": true, "default": true, "prod": true, "production": true,
	"dev": true, "development": true, "staging": true, "stage": true, "live": true, "test": true,
	"new": true, "old": true, "current": true, "literal": true, "bytes": true, "text": true, "main": true,
	"primary": true, "secondary": true, "backup": true, "local": true, "remote": true, "v1": true, "v2": true,
	"key": true, "bearer": true,
}

// nameWords splits an identifier into lower-case words at separators and
// camelCase boundaries: "dbPassword_PROD" -> db, password, prod.
func nameWords(name string) []string {
	var words []string
	var cur []byte
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isWordByte(c) || c == '_' {
			flush()
			continue
		}
		if 'A' <= c && c <= 'Z' && len(cur) > 0 {
			prev := cur[len(cur)-1]
			nextLower := i+1 < len(name) && 'a' <= name[i+1] && name[i+1] <= 'z'
			if 'a' <= prev && prev <= 'z' || '0' <= prev && prev <= '9' || ('A' <= prev && prev <= 'Z' && nextLower) {
				flush()
			}
		}
		cur = append(cur, c)
	}
	flush()
	return words
}

// secretName reports whether a name says its value is a secret.
func secretName(name string) bool {
	words := nameWords(name)
	last := -1
	for i, w := range words {
		if isSecretWord(words, i, w) {
			last = i
		}
	}
	if last < 0 {
		return false
	}
	for _, w := range words[last+1:] {
		if !neutralWords[w] && !isDigits(w) {
			return false
		}
	}
	return true
}

// passQualifiers make the short "pass" and "pw" secret words: db_pass,
// SMTP_PW; but not PASS (a test result) or renderPass.
var passQualifiers = map[string]bool{
	"db": true, "database": true, "smtp": true, "mail": true, "email": true, "user": true, "admin": true,
	"root": true, "ftp": true, "sftp": true, "ssh": true, "mysql": true, "postgres": true, "pg": true,
	"redis": true, "ldap": true, "proxy": true, "api": true, "app": true, "login": true, "account": true,
	"service": true, "wifi": true, "vpn": true, "bind": true, "master": true, "sudo": true, "keystore": true,
	"basic": true, "auth": true, "rabbit": true, "rabbitmq": true, "amqp": true, "mongo": true, "sql": true,
}

func isSecretWord(words []string, i int, w string) bool {
	if secretWords[w] {
		return true
	}
	if w == "pass" || w == "pw" {
		return i > 0 && passQualifiers[words[i-1]]
	}
	if w == "key" || w == "keys" {
		return i > 0 && keyQualifiers[words[i-1]]
	}
	for _, s := range secretSuffixes {
		if len(w) > len(s) && strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// judge decides whether an assignment holds a secret.
func (s *scanner) judge(b []byte, a assignment) (match, bool) {
	if !secretName(a.name) {
		return match{}, false
	}
	v := b[a.valStart:a.valEnd]
	m := match{
		start: a.valStart, end: a.valEnd, litStart: a.litStart, litEnd: a.litEnd,
		quote: a.quote, prefix: a.prefix, name: a.name,
		whole: a.valStart == a.litStart+len(a.prefix)+boolInt(a.quote != 0),
	}
	if isAWSSecretName(a.name) && isAWSSecretValue(v) && !isPlaceholder(v) {
		m.rule = ruleByID(ruleAWSSecretKey)
		return m, true
	}
	if !s.genericValue(b, a.valStart, a.valEnd) || echoesName(v, a.name) || placeholderBasicAuth(a.scheme, v) {
		return match{}, false
	}
	m.rule = genericRule()
	return m, true
}

func genericRule() *ruleSpec { return ruleByID(ruleGenericSecret) }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isAWSSecretName(name string) bool {
	words := nameWords(name)
	aws, secret, access := false, false, false
	for i, w := range words {
		switch w {
		case "aws":
			aws = true
		case "secret":
			secret = true
		case "access":
			access = access || i > 0 && words[i-1] == "secret"
		case "secretaccesskey":
			return true
		}
	}
	return secret && (aws || access)
}

func isAWSSecretValue(v []byte) bool {
	if len(v) != 40 {
		return false
	}
	for _, c := range v {
		if !isWordByte(c) && c != '/' && c != '+' || c == '_' {
			return false
		}
	}
	return true
}

// genericValue reports whether a value assigned to a secret-like name looks
// like a real secret rather than a word, a reference or a placeholder.
func (s *scanner) genericValue(b []byte, vs, ve int) bool {
	v := b[vs:ve]
	if len(v) < 8 || len(v) > maxValueLen {
		return false
	}
	var lower, upper, digit, other bool
	for _, c := range v {
		switch {
		case c == ' ' || c == '\t' || c < 0x20:
			return false
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z':
			upper = true
		case '0' <= c && c <= '9':
			digit = true
		default:
			other = true
		}
	}
	classes := boolInt(lower) + boolInt(upper) + boolInt(digit) + boolInt(other)
	if classes < 2 || !lower && !upper {
		return false // one kind of character, or a number
	}
	if isPlaceholder(v) || isReference(v) || isSlug(v, digit) || isUUID(v) {
		return false
	}
	if isHex(v) && (len(v) == 40 || len(v) == 64) && hashContext(lineAround(b, vs)) {
		return false
	}
	lv := strings.ToLower(string(v))
	for _, w := range []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "api_key", "credential"} {
		if strings.Contains(lv, w) {
			return false // "my-secret-token", "Password123": a description or a sample
		}
	}
	return entropy(v) >= s.threshold
}

// isReference reports values that point elsewhere: variables, paths, URLs.
func isReference(v []byte) bool {
	s := string(v)
	switch v[0] {
	case '$', '%', '{', '[', '(', '!', '&', '*', '/', '~', '#':
		return true
	}
	if strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.Contains(s, "://") {
		return true
	}
	if strings.Contains(s, "env(") || strings.Contains(s, "ENV[") || strings.Contains(s, "getenv") || strings.Contains(s, "environ") {
		return true
	}
	// secrets.FOO, config.db.password, vault:secret/data/x
	if strings.HasPrefix(s, "vault:") || strings.HasPrefix(s, "arn:") || strings.HasPrefix(s, "projects/") {
		return true
	}
	return false
}

// isSlug reports identifiers and names: lower-case words joined by - _ . with
// no digits ("prod-db-credentials"), or UPPER_SNAKE constants.
func isSlug(v []byte, digit bool) bool {
	if digit {
		return false
	}
	lowerSep, upperSep, sep := true, true, false
	for _, c := range v {
		switch {
		case c == '-' || c == '_' || c == '.':
			sep = true
		case 'a' <= c && c <= 'z':
			upperSep = false
		case 'A' <= c && c <= 'Z':
			lowerSep = false
		default:
			return false
		}
	}
	return sep && (lowerSep || upperSep)
}

// hashContext reports a line that talks about hashes or revisions, where a
// 40- or 64-digit hex value is a digest, not a key.
func hashContext(line []byte) bool {
	l := strings.ToLower(string(line))
	for _, w := range []string{"sha", "commit", "rev", "hash", "digest", "checksum", "integrity", "etag"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// lineAround returns the line holding b[i], at most 1 KiB each side: a
// minified file is one long line, and this runs per candidate.
func lineAround(b []byte, i int) []byte {
	s, e := i, i
	for s > 0 && b[s-1] != '\n' && i-s < 1024 {
		s--
	}
	for e < len(b) && b[e] != '\n' && e-i < 1024 {
		e++
	}
	return b[s:e]
}

// echoesName reports values that repeat a word of their own name
// ("encryptionKey": "encryptionKey1024"): labels and test names, not keys.
func echoesName(v []byte, name string) bool {
	lv := strings.ToLower(string(v))
	for _, w := range nameWords(name) {
		if len(w) >= 4 && strings.Contains(lv, w) {
			return true
		}
	}
	return false
}

// placeholderBasicAuth decodes "Basic <base64>" and reports placeholder
// credentials inside (user:password, foo:bar).
func placeholderBasicAuth(scheme string, v []byte) bool {
	if !strings.EqualFold(scheme, "basic") {
		return false
	}
	raw, err := base64.StdEncoding.DecodeString(string(v))
	if err != nil {
		return false
	}
	user, pass, ok := bytes.Cut(raw, []byte(":"))
	return ok && (len(pass) == 0 || urlPlaceholder(user, pass))
}
