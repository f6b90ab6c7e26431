package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func supplyEnv(vars map[string]string) (*Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] }}, &out, &errb
}

// TestVulnDBCommands imports the real fixture advisories, shows the
// status, and scans a sample workspace, through the command functions.
func TestVulnDBCommands(t *testing.T) {
	vars := map[string]string{"AISBX_VULNDB_DIR": t.TempDir()}
	ctx := context.Background()

	env, out, errb := supplyEnv(vars)
	if code := cmdVulnDB(ctx, env, []string{"status"}); code != ExitOK || !strings.Contains(out.String(), "nothing loaded") {
		t.Fatalf("status before import: %d %q %q", code, out, errb)
	}
	env, out, errb = supplyEnv(vars)
	if code := cmdVulnDB(ctx, env, []string{"import", filepath.Join("..", "vulndb", "testdata", "osv")}); code != ExitOK {
		t.Fatalf("import: %d %q", code, errb)
	}
	if !strings.Contains(out.String(), "npm: 4 advisories") {
		t.Errorf("import output: %q", out)
	}
	env, out, _ = supplyEnv(vars)
	if code := cmdVulnDB(ctx, env, []string{"status", "--json"}); code != ExitOK {
		t.Fatalf("status: %d", code)
	}
	var st struct {
		Ecosystems []struct {
			Ecosystem  string
			Advisories int
		}
	}
	if err := json.Unmarshal(out.Bytes(), &st); err != nil || len(st.Ecosystems) != 3 {
		t.Fatalf("status --json: %v %s", err, out)
	}
	env, out, errb = supplyEnv(vars)
	code := cmdVulnDB(ctx, env, []string{"scan", filepath.Join("..", "..", "checks", "vulns", "testdata", "workspace", "py")})
	if code != ExitFailure {
		t.Fatalf("scan: exit %d, want %d; %q %q", code, ExitFailure, out, errb)
	}
	for _, want := range []string{"requirements.txt:2: GHSA-j8r2-6x86-q33q [warning]", "requirements.txt:3: GHSA-v845-jxx5-vc9f", "3 known vulnerabilities"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("scan output lacks %q:\n%s", want, out)
		}
	}
	env, _, _ = supplyEnv(vars)
	if code := cmdVulnDB(ctx, env, []string{"frobnicate"}); code != ExitUsage {
		t.Errorf("unknown subcommand: exit %d", code)
	}
	env, _, _ = supplyEnv(vars)
	if code := cmdVulnDB(ctx, env, []string{"import", "--ecosystem", "crates.io", "x.zip"}); code != ExitUsage {
		t.Errorf("unknown ecosystem: exit %d", code)
	}
}

// TestVulnDBUpdateOffline: with the download site out of reach the
// command says so and exits 3, leaving the store alone.
func TestVulnDBUpdateOffline(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	vars := map[string]string{"AISBX_VULNDB_DIR": t.TempDir(), "AISBX_OSV_URL": "http://" + addr}
	env, _, errb := supplyEnv(vars)
	if code := cmdVulnDB(context.Background(), env, []string{"update", "--ecosystem", "npm"}); code != ExitInternal {
		t.Fatalf("exit %d, want %d", code, ExitInternal)
	}
	for _, want := range []string{"aisbxd vulndb update: the OSV download site cannot be reached", "left as it was", "aisbxd vulndb import"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("message lacks %q: %s", want, errb)
		}
	}
}

func TestSBOMCommand(t *testing.T) {
	ws := filepath.Join("..", "inventory", "testdata", "npm-v3")
	out := filepath.Join(t.TempDir(), "bom.json")
	env, _, errb := supplyEnv(nil)
	if code := cmdSBOM(context.Background(), env, []string{"--format", "spdx-json", "--output", out, ws}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	data, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(data, []byte(`"spdxVersion": "SPDX-2.3"`)) {
		t.Fatalf("document: %v %.200s", err, data)
	}
	if !strings.Contains(errb.String(), "6 packages") || !strings.Contains(errb.String(), "sha256 ") {
		t.Errorf("summary: %q", errb)
	}
	env, stdout, _ := supplyEnv(nil)
	if code := cmdSBOM(context.Background(), env, []string{ws}); code != ExitOK || !bytes.Contains(stdout.Bytes(), []byte(`"bomFormat": "CycloneDX"`)) {
		t.Errorf("stdout document: %d %.200s", code, stdout)
	}
	env, _, _ = supplyEnv(nil)
	if code := cmdSBOM(context.Background(), env, []string{"--format", "xml", ws}); code != ExitUsage {
		t.Errorf("bad format: exit %d", code)
	}
	env, _, _ = supplyEnv(nil)
	if code := cmdSBOM(context.Background(), env, []string{filepath.Join(ws, "missing")}); code != ExitUsage {
		t.Errorf("missing dir: exit %d", code)
	}
}
