package secrets

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"sync"

	"github.com/aisbx/aisbx/checks"
)

// knownPrefixes are the public parts of token formats: showing one tells a
// reader what kind of secret it was without giving away any of it. Longest
// first, so "sk-ant-api03-" wins over "sk-".
var knownPrefixes = []string{
	"https://hooks.slack.com/services/", "https://hooks.slack.com/workflows/", "https://hooks.slack.com/triggers/",
	"pypi-AgEIcHlwaS5vcmc", "sk-ant-admin01-", "sk-ant-api03-", "github_pat_", "sk-svcacct-", "api_org_",
	"sk-admin-", "sk-proj-", "sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_",
	"glagent-", "dop_v1_", "doo_v1_", "dor_v1_", "shpat_", "shpca_", "shppa_", "shpss_", "glpat-", "gloas-",
	"glptt-", "glsoat-", "glcbt-", "xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxr-", "xoxs-", "xapp-", "xoxe.",
	"gldt-", "glrt-", "glft-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "npm_", "AKIA", "ASIA", "ABIA",
	"ACCA", "AIza", "hf_", "SG.", "eyJ", "sk-",
}

// Redact returns a form of secret that is safe to show, log or store: at
// most a public prefix that identifies the kind of secret ("ghp_", "AKIA",
// the BEGIN line of a key block) and the length, never enough of the secret
// to use or guess it.
func Redact(secret string) string {
	n := len(secret)
	prefix := ""
	switch {
	case strings.HasPrefix(secret, "-----BEGIN"):
		if i := strings.Index(secret[5:], "-----"); i >= 0 {
			prefix = secret[:5+i+5]
		}
	default:
		for _, p := range knownPrefixes {
			if strings.HasPrefix(secret, p) && n > len(p)+4 {
				prefix = p
				break
			}
		}
	}
	return prefix + "…(" + strconv.Itoa(n) + " chars)"
}

var (
	redactOnce    sync.Once
	redactScanner *scanner
)

// RedactText returns b with every secret the scanner finds replaced by its
// Redact form. It is meant for text aisbx did not write: test output, logs,
// command lines. It uses the default rules, reads bare values the way it
// would in a config file, and never returns b itself.
func RedactText(b []byte) []byte {
	redactOnce.Do(func() { redactScanner = newScanner(DefaultEntropyThreshold, nil) })
	ms, _ := redactScanner.scan(context.Background(), b, fileKind{lang: checks.LangText})
	if len(ms) == 0 {
		return bytes.Clone(b)
	}
	var out bytes.Buffer
	out.Grow(len(b))
	last := 0
	for _, m := range ms {
		if m.start < last {
			continue
		}
		out.Write(b[last:m.start])
		out.WriteString(Redact(string(b[m.start:m.end])))
		last = m.end
	}
	out.Write(b[last:])
	return out.Bytes()
}
