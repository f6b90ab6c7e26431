package secrets

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/checks"
)

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// TestRulesAreDocumented: every rule has a stable kebab-case id, SARIF
// metadata and its page in docs/rules, which the finding links to.
func TestRulesAreDocumented(t *testing.T) {
	c := mustCheck(t, DefaultOptions())
	seen := map[string]bool{}
	for _, r := range c.Rules() {
		if !kebab.MatchString(r.ID) || seen[r.ID] {
			t.Errorf("rule id %q is not unique kebab-case", r.ID)
		}
		seen[r.ID] = true
		if r.Category != checks.CategorySecret || r.Title == "" || len(r.Description) < 40 ||
			r.SecuritySeverity < 4 || r.SecuritySeverity > 10 || r.DocURL != checks.RuleDocURL(r.ID) {
			t.Errorf("rule %s: incomplete metadata %+v", r.ID, r)
		}
		page, err := os.ReadFile(filepath.Join("..", "..", "docs", "rules", r.ID+".md"))
		if err != nil {
			t.Errorf("rule %s has no doc page: %v", r.ID, err)
			continue
		}
		if !strings.HasPrefix(string(page), "# "+r.ID+":") {
			t.Errorf("docs/rules/%s.md does not start with its id", r.ID)
		}
	}
	// Rules whose keyword is in the corpus must also be exercised by it.
	want, err := readExpected("corpus")
	if err != nil {
		t.Fatal(err)
	}
	planted := map[string]bool{}
	for _, e := range want {
		planted[e.rule] = true
	}
	for id := range seen {
		if !planted[id] {
			t.Errorf("rule %s has no planted secret in testdata/templates/corpus", id)
		}
	}
}
