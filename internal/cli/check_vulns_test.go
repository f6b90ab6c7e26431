package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/internal/testfs"
	"github.com/aisbx/aisbx/internal/vulndb"
)

// TestCheckChangedReportsOnlyNewVulnerabilities: the pull-request gate
// (`check --changed`) counts the vulnerabilities a change brings in, not
// those the lockfile already had at the base revision.
func TestCheckChangedReportsOnlyNewVulnerabilities(t *testing.T) {
	db := t.TempDir()
	if _, err := vulndb.Import(context.Background(), db, filepath.Join("..", "vulndb", "testdata", "osv"), vulndb.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AISBX_VULNDB_DIR", db)
	root := t.TempDir()
	req := filepath.Join(root, "svc", "requirements.txt")
	os.MkdirAll(filepath.Dir(req), 0o755)
	os.WriteFile(req, []byte("py==1.11.0\nrequests==2.31.0\n"), 0o644)
	testfs.GitRepo(t, root)
	os.WriteFile(req, []byte("py==1.11.0\nrequests==2.30.0\nurllib3==2.0.0\n"), 0o644)

	rules := func(args ...string) []string {
		var out, errb bytes.Buffer
		code := Main(context.Background(), append([]string{"check", "--format", "json", "--fail-on", "never"}, args...),
			&Env{Stdout: &out, Stderr: &errb, Getenv: os.Getenv, Stdin: strings.NewReader("")})
		if code != 0 {
			t.Fatalf("check %v: exit %d\n%s", args, code, errb.String())
		}
		var rep struct {
			Findings []struct {
				Rule     string `json:"rule"`
				Category string `json:"category"`
			} `json:"findings"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		var got []string
		for _, f := range rep.Findings {
			if f.Category == "dependency" && strings.HasPrefix(f.Rule, "GHSA-") {
				got = append(got, f.Rule)
			}
		}
		sort.Strings(got)
		return got
	}
	all := rules(root)
	changed := rules("--changed", root)
	if strings.Join(changed, " ") != "GHSA-j8r2-6x86-q33q GHSA-v845-jxx5-vc9f" {
		t.Fatalf("--changed reports %v; want only the two the change introduces", changed)
	}
	if len(all) <= len(changed) {
		t.Fatalf("without --changed: %v; want the vulnerability HEAD already had as well", all)
	}
}
