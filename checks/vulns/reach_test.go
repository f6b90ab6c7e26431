package vulns

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/internal/vulndb"
)

// TestReach evaluates each testdata/reach file against the Go imports of
// the real advisory its first line names.
func TestReach(t *testing.T) {
	names := map[reachResult]string{reachNotImported: "not-imported", reachImported: "imported", reachCalled: "called"}
	files, _ := filepath.Glob("testdata/reach/*.go.txt")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(src), "\n")
		var id, want string
		for _, f := range strings.Fields(first) {
			switch {
			case strings.HasPrefix(f, "GO-"):
				id = f
			case f == "called" || f == "imported" || f == "not-imported":
				want = f
			}
		}
		raw, err := os.ReadFile(filepath.Join("..", "..", "internal", "vulndb", "testdata", "osv", "Go", id+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var adv vulndb.Advisory
		if err := json.Unmarshal(raw, &adv); err != nil {
			t.Fatal(err)
		}
		ff, err := parseFacts(src)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		u := &goUsage{files: []*fileFacts{ff}}
		got := reachNotImported
		for i := range adv.Affected {
			if r, _ := u.reach(adv.Affected[i].GoImports()); r > got {
				got = r
			}
		}
		if names[got] != want {
			t.Errorf("%s: %s, want %s", filepath.Base(p), names[got], want)
		}
	}
}
