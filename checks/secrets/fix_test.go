package secrets

import (
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/checks"
)

// applyEdits applies one fix's edits, last first so offsets stay valid.
func applyEdits(b []byte, edits []checks.Edit) []byte {
	es := append([]checks.Edit(nil), edits...)
	sort.Slice(es, func(i, j int) bool { return es[i].Start > es[j].Start })
	out := bytes.Clone(b)
	for _, e := range es {
		out = append(out[:e.Start:e.Start], append([]byte(e.NewText), out[e.End:]...)...)
	}
	return out
}

// TestQuickFixes applies the preferred fix of the first fixable finding,
// rescans, and repeats, as a user clicking through the quick fixes would,
// then compares the result with testdata/golden/fixes. Every planted secret
// that can be fixed must be gone, and Go results must still parse.
func TestQuickFixes(t *testing.T) {
	c := mustCheck(t, DefaultOptions())
	root, files := setFiles(t, "fixes")
	for rel, data := range files {
		t.Run(rel, func(t *testing.T) {
			path := filepath.Join(root, filepath.FromSlash(rel))
			content := data
			applied := 0
			for range 20 {
				fs, err := c.Run(context.Background(), checks.NewFile(root, path, content))
				if err != nil {
					t.Fatal(err)
				}
				var fix *checks.Fix
				for i := range fs {
					if len(fs[i].Fixes) > 0 {
						fix = &fs[i].Fixes[0]
						break
					}
				}
				if fix == nil {
					break
				}
				if !fix.Preferred || !strings.HasPrefix(fix.Title, "Read ") {
					t.Errorf("fix %+v", fix)
				}
				content = applyEdits(content, fix.Edits)
				applied++
			}
			if applied == 0 {
				t.Fatal("no fix applied")
			}
			if strings.HasSuffix(rel, ".go") {
				if _, err := parser.ParseFile(token.NewFileSet(), rel, content, 0); err != nil {
					t.Errorf("fixed Go does not parse: %v\n%s", err, content)
				}
			}
			if strings.HasSuffix(rel, ".py") && bytes.Count(content, []byte("import os")) != 1 {
				t.Errorf("want exactly one import os:\n%s", content)
			}
			checkGolden(t, filepath.Join("testdata", "golden", "fixes", filepath.FromSlash(rel)), content)
		})
	}
}

func TestEnvName(t *testing.T) {
	gh := ruleByID(ruleGitHubPAT)
	tests := []struct {
		name string
		rule *ruleSpec
		want string
	}{
		{"githubToken", gh, "GITHUB_TOKEN"},
		{"token", gh, "GITHUB_TOKEN"},
		{"", gh, "GITHUB_TOKEN"},
		{"self.ci_token", gh, "CI_TOKEN"},
		{"config.DBPassword", genericRule(), "DB_PASSWORD"},
		{"password", genericRule(), "PASSWORD"},
		{"--password", genericRule(), "PASSWORD"},
		{"2fa_secret", genericRule(), "SECRET"},
	}
	for _, tc := range tests {
		if got := envName(match{name: tc.name, rule: tc.rule}); got != tc.want {
			t.Errorf("envName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// checkGolden compares got with a golden file, rewriting it under -update.
func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n%s\nwant:\n%s", golden, got, want)
	}
}
