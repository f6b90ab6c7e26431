package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"hash/crc32"
	"time"
)

const base62Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// validateCRC32Token checks the checksum GitHub (ghp_, gho_, ghu_, ghs_,
// ghr_) and npm (npm_) put in their tokens: the last 6 characters are the
// base62 CRC32 of the 30 random ones. A token whose checksum fails is still
// reported, as weak: it is probably made up, but it looks real to readers
// and to other scanners.
func validateCRC32Token(tok []byte) (ok, weak bool, note string) {
	if !validCRC32Token(tok) {
		return true, true, "its checksum does not match, so it is probably not a live token"
	}
	return true, false, ""
}

func validCRC32Token(tok []byte) bool {
	if len(tok) != 40 {
		return false
	}
	body, sum := tok[4:34], tok[34:]
	var got uint64
	for _, c := range sum {
		i := bytes.IndexByte([]byte(base62Alphabet), c)
		if i < 0 {
			return false
		}
		got = got*62 + uint64(i)
	}
	return got == uint64(crc32.ChecksumIEEE(body))
}

// wellKnownJWTSignatures are tokens published in documentation (jwt.io's
// "John Doe" example), never live.
var wellKnownJWTSignatures = []string{
	"SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
	"KMUFsIDTnFmyG3nMiGM6H9FNFUROf3wh7SmqJp-QV30",
}

// validateJWT keeps tokens whose header decodes to JSON with an "alg"
// and whose payload decodes to a JSON object.
func validateJWT(tok []byte) (ok, weak bool, note string) {
	parts := bytes.Split(tok, []byte("."))
	if len(parts) != 3 {
		return false, false, ""
	}
	for _, s := range wellKnownJWTSignatures {
		if string(bytes.TrimRight(parts[2], "=")) == s {
			return false, false, ""
		}
	}
	var header struct {
		Alg string `json:"alg"`
	}
	if !decodeJSONSegment(parts[0], &header) || header.Alg == "" {
		return false, false, ""
	}
	var payload map[string]any
	if !decodeJSONSegment(parts[1], &payload) {
		return false, false, ""
	}
	if header.Alg == "none" {
		return true, true, "it is unsigned (alg none)"
	}
	if exp, ok := payload["exp"].(float64); ok && time.Unix(int64(exp), 0).Before(time.Now()) {
		return true, true, "it has expired"
	}
	return true, false, ""
}

func decodeJSONSegment(seg []byte, v any) bool {
	raw, err := base64.RawURLEncoding.DecodeString(string(bytes.TrimRight(seg, "=")))
	if err != nil {
		return false
	}
	return json.Unmarshal(raw, v) == nil
}

// validateStripe marks test-mode keys weak: they cannot move money, but
// they still open the account's test data.
func validateStripe(tok []byte) (ok, weak bool, note string) {
	if bytes.Contains(tok[:8], []byte("_test_")) {
		return true, true, "it is a test-mode key"
	}
	return true, false, ""
}
