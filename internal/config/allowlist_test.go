package config

import (
	"strings"
	"testing"
)

func TestAddAllowlistFingerprint(t *testing.T) {
	const fp = "sha256:00ab"
	tests := []struct{ name, in, want string }{
		{"new file", "", "[secrets.allowlist]\nfingerprints = [\"sha256:00ab\"]\n"},
		{"append table", "[lsp]\ndebounce = \"1s\"\n", "[lsp]\ndebounce = \"1s\"\n\n[secrets.allowlist]\nfingerprints = [\"sha256:00ab\"]\n"},
		{"no final newline", "[lsp]\ndebounce = \"1s\"", "[lsp]\ndebounce = \"1s\"\n\n[secrets.allowlist]\nfingerprints = [\"sha256:00ab\"]\n"},
		{"table without key", "[secrets.allowlist]\n# keep me\n[lsp]\n", "[secrets.allowlist]\nfingerprints = [\"sha256:00ab\"]\n# keep me\n[lsp]\n"},
		{"empty list", "[secrets.allowlist]\nfingerprints = []\n", "[secrets.allowlist]\nfingerprints = [\"sha256:00ab\"]\n"},
		{"existing list", "[secrets.allowlist]\nfingerprints = [\"sha256:ff\"] # old\n", "[secrets.allowlist]\nfingerprints = [\"sha256:00ab\", \"sha256:ff\"] # old\n"},
		{"multi-line list", "[secrets.allowlist]\nfingerprints = [\n  \"sha256:ff\",\n]\n", "[secrets.allowlist]\nfingerprints = [\"sha256:00ab\", \n  \"sha256:ff\",\n]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ins, err := AddAllowlistFingerprint("aisbx.toml", []byte(tt.in), fp)
			if err != nil {
				t.Fatal(err)
			}
			got := tt.in[:ins.Offset] + ins.Text + tt.in[ins.Offset:]
			if got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	if _, err := AddAllowlistFingerprint("aisbx.toml", []byte("[secrets.allowlist]\nfingerprints = [\"sha256:00ab\"]\n"), fp); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("duplicate: %v", err)
	}
	// Inline tables are valid TOML aisbx does not rewrite: refuse clearly.
	if _, err := AddAllowlistFingerprint("aisbx.toml", []byte("secrets = { allowlist = { fingerprints = [] } }\n"), fp); err == nil || !strings.Contains(err.Error(), "by hand") {
		t.Errorf("inline table: %v", err)
	}
}
