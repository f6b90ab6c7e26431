package secrets

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// notSecretKinds are planted values that must survive redaction.
var notSecretKinds = map[string]bool{"uuid": true, "sha1": true, "sha256": true, "integrity": true, "gosum": true}

// TestRedactText masks every planted secret in text that is not source
// (test output, logs) and leaves ids and digests alone.
func TestRedactText(t *testing.T) {
	g, err := generateSet("redact")
	if err != nil {
		t.Fatal(err)
	}
	for rel, data := range g.files {
		out := RedactText(data)
		for _, p := range g.planted {
			if !bytes.Contains(data, []byte(p.value)) {
				continue
			}
			has := bytes.Contains(out, []byte(p.value))
			if notSecretKinds[p.kind] && !has {
				t.Errorf("%s: %s %q was redacted", rel, p.kind, p.value)
			}
			if !notSecretKinds[p.kind] && (has || leaks(string(out), p.value)) {
				t.Errorf("%s: %s survived redaction:\n%s", rel, p.kind, out)
			}
		}
		checkGolden(t, filepath.Join("testdata", "golden", "redact", rel), out)
	}
}

func TestRedact(t *testing.T) {
	r := &rng{s: 42}
	tests := []struct {
		secret, wantPrefix string
	}{
		{fakes["aws-akid"](r), "AKIA…"},
		{fakes["ghp"](r), "ghp_…"},
		{fakes["github-fine"](r), "github_pat_…"},
		{fakes["anthropic"](r), "sk-ant-api03-…"},
		{fakes["openai"](r), "sk-proj-…"},
		{fakes["pem-rsa"](r), "-----BEGIN RSA PRIVATE KEY-----…"},
		{"hunter#2@Xq9!zL", "…"},
		{"AKIA", "…"}, // too short to show a prefix of
	}
	for _, tc := range tests {
		got := Redact(tc.secret)
		if !strings.HasPrefix(got, tc.wantPrefix) || !strings.HasSuffix(got, " chars)") {
			t.Errorf("Redact(%.12s…) = %q, want prefix %q and a length", tc.secret, got, tc.wantPrefix)
		}
		if leaks(got, tc.secret) {
			t.Errorf("Redact(%.12s…) = %q leaks", tc.secret, got)
		}
	}
}
