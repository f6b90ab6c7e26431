package dangerous

import (
	"strings"
	"unicode"
)

// splitWords splits an identifier into lower-case words at underscores,
// dashes, dots, digits and camelCase humps: "newAPIToken_v2" gives
// new, api, token, v.
func splitWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r):
			flush()
		case unicode.IsUpper(r) && len(cur) > 0 &&
			(unicode.IsLower(cur[len(cur)-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// secretWords name values that must be unpredictable.
var secretWords = map[string]bool{
	"token": true, "tokens": true, "secret": true, "secrets": true, "password": true, "passwd": true,
	"pwd": true, "passphrase": true, "nonce": true, "salt": true, "csrf": true, "xsrf": true,
	"otp": true, "totp": true, "credential": true, "credentials": true, "apikey": true,
	"sessionid": true, "verifier": true, "bearer": true, "jwt": true,
}

// secretPairs are two-word names that mean a secret although neither word
// does on its own ("key" alone is a map key, "id" alone an identifier).
var secretPairs = map[[2]string]bool{
	{"api", "key"}: true, {"secret", "key"}: true, {"private", "key"}: true, {"access", "key"}: true,
	{"encryption", "key"}: true, {"signing", "key"}: true, {"session", "key"}: true, {"auth", "key"}: true,
	{"session", "id"}: true, {"reset", "code"}: true, {"verification", "code"}: true, {"invite", "code"}: true,
	{"auth", "code"}: true, {"recovery", "code"}: true, {"confirmation", "code"}: true, {"one", "time"}: true,
	{"auth", "state"}: true, {"oauth", "state"}: true,
}

// passwordWords name passwords; weak hashes are flagged only near them,
// since MD5 of a file is a checksum, not a vulnerability.
var passwordWords = map[string]bool{
	"password": true, "passwords": true, "passwd": true, "pwd": true, "passphrase": true, "pw": true, "pass": true,
}

// secretName reports whether an identifier names a secret.
func secretName(name string) bool {
	ws := splitWords(name)
	for i, w := range ws {
		if secretWords[w] {
			return true
		}
		if i > 0 && secretPairs[[2]string{ws[i-1], w}] {
			return true
		}
	}
	return false
}

// passwordName reports whether an identifier names a password.
func passwordName(name string) bool {
	for _, w := range splitWords(name) {
		if passwordWords[w] {
			return true
		}
	}
	return false
}

func anyName(names []string, pred func(string) bool) bool {
	for _, n := range names {
		if pred(n) {
			return true
		}
	}
	return false
}
