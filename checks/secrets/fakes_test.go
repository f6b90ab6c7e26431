package secrets

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"hash/crc32"
	"strings"
)

// rng is splitmix64: tiny, and its output never changes between Go
// releases, so the generated corpus is reproducible byte for byte.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *rng) pick(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.next()%uint64(len(alphabet))]
	}
	return string(b)
}

func (r *rng) bytes(n int) []byte {
	b := make([]byte, n)
	for i := 0; i < n; i += 8 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], r.next())
		copy(b[i:], w[:])
	}
	return b
}

const (
	alnumChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upperAlnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b64Chars   = alnumChars + "+/"
	b64URL     = alnumChars + "-_"
	hexChars   = "0123456789abcdef"
	digitChars = "0123456789"
	letterSet  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	pwChars    = alnumChars + "#@!%^&*-_=+.,:;?~"
)

// base62CRC32 is the checksum GitHub and npm append to their tokens.
func base62CRC32(body string) string {
	n := uint64(crc32.ChecksumIEEE([]byte(body)))
	out := []byte("000000")
	for i := 5; i >= 0 && n > 0; i-- {
		out[i] = base62Alphabet[n%62]
		n /= 62
	}
	return string(out)
}

func (r *rng) checksummed(prefix string) string {
	body := r.pick(alnumChars, 30)
	return prefix + body + base62CRC32(body)
}

func (r *rng) password() string {
	// Always with '#' and '@', which end gitleaks' generic value.
	p := r.pick(alnumChars, 5) + "#" + r.pick(pwChars, 4) + "@" + r.pick(alnumChars, 5)
	return p
}

func (r *rng) pemBlock(kind string, n int, escaped bool) string {
	body := base64.StdEncoding.EncodeToString(r.bytes(n))
	var lines []string
	for len(body) > 64 {
		lines = append(lines, body[:64])
		body = body[64:]
	}
	lines = append(lines, body)
	nl := "\n"
	if escaped {
		nl = `\n`
	}
	head := "-----BEGIN " + kind + "PRIVATE KEY-----"
	return head + nl + strings.Join(lines, nl) + nl + "-----END " + kind + "PRIVATE KEY-----"
}

func (r *rng) jwt() string {
	enc := base64.RawURLEncoding.EncodeToString
	header, _ := json.Marshal(map[string]string{"alg": "HS256", "typ": "JWT"})
	payload, _ := json.Marshal(map[string]any{
		"sub": r.pick(digitChars, 10), "name": "svc-" + r.pick(hexChars, 6),
		"iat": 1700000000 + r.next()%10000000, "scope": "admin",
	})
	return enc(header) + "." + enc(payload) + "." + enc(r.bytes(32))
}

// fakes generate tokens in each provider's real format: right prefix, length
// and alphabet, and a valid checksum where the format has one.
var fakes = map[string]func(r *rng) string{
	"aws-akid":   func(r *rng) string { return "AKIA" + r.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16) },
	"aws-asia":   func(r *rng) string { return "ASIA" + r.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16) },
	"aws-secret": func(r *rng) string { return r.pick(b64Chars, 40) },
	"ghp":        func(r *rng) string { return r.checksummed("ghp_") },
	"ghp-badsum": func(r *rng) string { return "ghp_" + r.pick(alnumChars, 36) },
	"gho":        func(r *rng) string { return r.checksummed("gho_") },
	"ghu":        func(r *rng) string { return r.checksummed("ghu_") },
	"ghs":        func(r *rng) string { return r.checksummed("ghs_") },
	"ghr":        func(r *rng) string { return r.checksummed("ghr_") },
	"github-fine": func(r *rng) string {
		return "github_pat_11" + r.pick(upperAlnum, 20) + "_" + r.pick(alnumChars, 59)
	},
	"glpat":      func(r *rng) string { return "glpat-" + r.pick(alnumChars+"_", 20) },
	"glpat-dash": func(r *rng) string { return "glpat-" + r.pick(alnumChars, 19) + "-" },
	"gldt":       func(r *rng) string { return "gldt-" + r.pick(alnumChars, 20) },
	"xoxb": func(r *rng) string {
		return "xoxb-" + r.pick(digitChars, 12) + "-" + r.pick(digitChars, 13) + "-" + r.pick(alnumChars, 24)
	},
	"xoxp": func(r *rng) string {
		return "xoxp-" + r.pick(digitChars, 12) + "-" + r.pick(digitChars, 12) + "-" + r.pick(digitChars, 13) + "-" + r.pick(hexChars, 32)
	},
	"xapp": func(r *rng) string {
		return "xapp-1-A" + r.pick(upperAlnum, 10) + "-" + r.pick(digitChars, 13) + "-" + r.pick(hexChars, 64)
	},
	"slack-webhook": func(r *rng) string {
		return "https://hooks.slack.com/services/T" + r.pick(upperAlnum, 8) + "/B" + r.pick(upperAlnum, 10) + "/" + r.pick(alnumChars, 24)
	},
	"sk-live":       func(r *rng) string { return "sk_live_51" + r.pick(alnumChars, 97) },
	"rk-live":       func(r *rng) string { return "rk_live_51" + r.pick(alnumChars, 97) },
	"sk-test":       func(r *rng) string { return "sk_test_51" + r.pick(alnumChars, 97) },
	"google":        func(r *rng) string { return "AIzaSy" + r.pick(b64URL, 33) },
	"google-dash":   func(r *rng) string { return "AIzaSy" + r.pick(alnumChars, 32) + "-" },
	"openai":        func(r *rng) string { return "sk-proj-" + r.pick(b64URL, 74) + "T3BlbkFJ" + r.pick(b64URL, 74) },
	"openai-legacy": func(r *rng) string { return "sk-" + r.pick(alnumChars, 20) + "T3BlbkFJ" + r.pick(alnumChars, 20) },
	"anthropic":     func(r *rng) string { return "sk-ant-api03-" + r.pick(b64URL, 93) + "AA" },
	"npm":           func(r *rng) string { return r.checksummed("npm_") },
	"pypi":          func(r *rng) string { return "pypi-AgEIcHlwaS5vcmc" + r.pick(b64URL, 150) },
	"sendgrid":      func(r *rng) string { return "SG." + r.pick(b64URL, 22) + "." + r.pick(b64URL, 43) },
	"twilio":        func(r *rng) string { return "SK" + r.pick(hexChars, 32) },
	"hf":            func(r *rng) string { return "hf_" + r.pick(letterSet, 34) },
	"shpat":         func(r *rng) string { return "shpat_" + r.pick(hexChars, 32) },
	"shpss":         func(r *rng) string { return "shpss_" + r.pick(hexChars, 32) },
	"dop":           func(r *rng) string { return "dop_v1_" + r.pick(hexChars, 64) },
	"azure-key":     func(r *rng) string { return r.pick(b64Chars, 86) + "==" },
	"jwt":           func(r *rng) string { return r.jwt() },
	"pem-rsa":       func(r *rng) string { return r.pemBlock("RSA ", 1190, false) },
	"pem-ec":        func(r *rng) string { return r.pemBlock("EC ", 121, false) },
	"pem-openssh":   func(r *rng) string { return r.pemBlock("OPENSSH ", 399, false) },
	"pem-escaped":   func(r *rng) string { return r.pemBlock("RSA ", 600, true) },
	"pem-ed25519": func(r *rng) string {
		der, err := x509.MarshalPKCS8PrivateKey(ed25519.NewKeyFromSeed(r.bytes(32)))
		if err != nil {
			panic(err)
		}
		return strings.TrimSpace(string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})))
	},
	"pw": func(r *rng) string { return r.password() },
	"pw-url": func(r *rng) string {
		return r.pick(alnumChars, 8) + "#" + r.pick(alnumChars, 6) + "@" + r.pick(alnumChars, 4)
	},
	"pw-plain": func(r *rng) string { return r.pick(alnumChars, 18) },
	"hex32":    func(r *rng) string { return r.pick(hexChars, 32) },
	"hex40":    func(r *rng) string { return r.pick(hexChars, 40) },
	"b64-44":   func(r *rng) string { return base64.StdEncoding.EncodeToString(r.bytes(32)) },
	"django":   func(r *rng) string { return "django-insecure-" + r.pick(alnumChars+"!@#%^&*(-_=+)", 50) },
	"uuid": func(r *rng) string {
		h := r.pick(hexChars, 32)
		return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:]
	},
	"sha1":       func(r *rng) string { return r.pick(hexChars, 40) },
	"sha256":     func(r *rng) string { return r.pick(hexChars, 64) },
	"integrity":  func(r *rng) string { return "sha512-" + base64.StdEncoding.EncodeToString(r.bytes(64)) },
	"integrity1": func(r *rng) string { return "sha1-" + base64.StdEncoding.EncodeToString(r.bytes(20)) },
	"gosum":      func(r *rng) string { return "h1:" + base64.StdEncoding.EncodeToString(r.bytes(32)) },
	"png-b64": func(r *rng) string {
		return "iVBORw0KGgoAAAANSUhEUgAA" + base64.StdEncoding.EncodeToString(r.bytes(1500))
	},
}

func fake(kind string, r *rng) (string, error) {
	f, ok := fakes[kind]
	if !ok {
		return "", fmt.Errorf("unknown fake kind %q", kind)
	}
	return f(r), nil
}
