package dangerous

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/checks/dangerous/internal/corpus"
)

func TestApplies(t *testing.T) {
	c := New(Options{MaxFileBytes: 100})
	tests := []struct {
		path string
		size int
		want bool
	}{
		{"a.go", 10, true}, {"a.py", 10, true}, {"a.js", 10, true}, {"a.jsx", 10, true}, {"a.mjs", 10, true},
		{"a.ts", 10, true}, {"a.tsx", 10, true}, {"a.sh", 10, true}, {"a.bash", 10, true},
		{"a.md", 10, false}, {"a.json", 10, false}, {"Dockerfile", 10, false}, {"a.txt", 10, false},
		{"big.py", 101, false},
	}
	for _, tt := range tests {
		f := checks.NewFile("", "/w/"+tt.path, bytes.Repeat([]byte("x"), tt.size))
		if got := c.Applies(f); got != tt.want {
			t.Errorf("Applies(%s, %d bytes) = %v, want %v", tt.path, tt.size, got, tt.want)
		}
	}
	if c.Name() != "dangerous" {
		t.Errorf("Name = %q", c.Name())
	}
}

func TestDisabledRules(t *testing.T) {
	f := loadFile(t, "testdata/python/dangerous.py")
	all, err := New(Options{}).Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	some, err := New(Options{DisabledRules: []string{"py-eval", "py-sql-injection"}}).Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	count := func(fs []checks.Finding, rule string) (n int) {
		for _, fd := range fs {
			if fd.Rule == rule {
				n++
			}
		}
		return n
	}
	if count(all, "py-eval") == 0 || count(all, "py-sql-injection") == 0 {
		t.Fatal("corpus lacks the rules this test disables")
	}
	if count(some, "py-eval")+count(some, "py-sql-injection") != 0 {
		t.Error("disabled rules still report")
	}
	if len(some) != len(all)-count(all, "py-eval")-count(all, "py-sql-injection") {
		t.Errorf("disabling two rules changed other findings: %d -> %d", len(all), len(some))
	}
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, path := range corpusFiles(t) {
		_, err := New(Options{}).Run(ctx, loadFile(t, path))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", path, err)
		}
	}
}

// TestConcurrentRuns runs every corpus file from several goroutines at once
// through one Check (shared parser pools and tree cache) and expects the
// same findings as a sequential run. Run it with -race.
func TestConcurrentRuns(t *testing.T) {
	files := corpusFiles(t)
	c := New(Options{TreeCacheEntries: 4}) // small: forces evictions under load
	defer c.Close()
	want := map[string]string{}
	for _, p := range files {
		want[p] = summary(t, New(Options{TreeCacheEntries: -1}), loadFile(t, p))
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 3; round++ {
				for _, p := range files {
					if got := summary(t, c, loadFile(t, p)); got != want[p] {
						t.Errorf("%s: concurrent run differs:\n%s\nwant:\n%s", p, got, want[p])
					}
				}
			}
		}()
	}
	wg.Wait()
}

func summary(t testing.TB, c *Check, f *checks.File) string {
	fs, err := c.Run(context.Background(), f)
	if err != nil {
		t.Error(err)
		return ""
	}
	var b strings.Builder
	for _, fd := range fs {
		fmt.Fprintf(&b, "%d-%d %s %v %d\n", fd.Start, fd.End, fd.Rule, fd.Severity, len(fd.Fixes))
	}
	return b.String()
}

// TestIncrementalEqualsCold edits each corpus file line by line, checking
// each version with the cached previous tree and from scratch: reusing the
// tree must never change what is found.
func TestIncrementalEqualsCold(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range corpusFiles(t) {
		t.Run(filepath.ToSlash(p), func(t *testing.T) {
			warm, cold := New(Options{}), New(Options{TreeCacheEntries: -1})
			defer warm.Close()
			f := loadFile(t, p)
			content := f.Content
			for step := 0; step < 12; step++ {
				lines := bytes.SplitAfter(content, []byte("\n"))
				i := rng.IntN(len(lines))
				switch step % 3 {
				case 0: // duplicate a line
					lines = append(lines[:i+1], lines[i:]...)
				case 1: // delete a line
					lines = append(lines[:i], lines[i+1:]...)
				case 2: // type into the middle of a line
					l := lines[i]
					j := rng.IntN(len(l) + 1)
					lines[i] = append(append(append([]byte{}, l[:j]...), " x "...), l[j:]...)
				}
				content = bytes.Join(lines, nil)
				edited := checks.NewFile(f.Root, f.Path, content)
				if got, want := summary(t, warm, edited), summary(t, cold, edited); got != want {
					t.Fatalf("step %d: incremental run differs from cold run:\n%s\nwant:\n%s", step, got, want)
				}
			}
		})
	}
}

var ruleIDPattern = regexp.MustCompile(`^(py|js|go|sh)-[a-z0-9]+(-[a-z0-9]+)*$`)

// TestRuleCatalog asserts that every rule has a well-formed id, a doc page,
// a safe alternative in its advice, and at least one planted example.
func TestRuleCatalog(t *testing.T) {
	planted := map[string]bool{}
	for _, p := range corpusFiles(t) {
		b, _ := os.ReadFile(p)
		for _, w := range corpus.Wants(b) {
			planted[w.Rule] = true
			if _, ok := rulesByID[w.Rule]; !ok {
				t.Errorf("%s plants unknown rule %q", p, w.Rule)
			}
		}
	}
	prefix := map[checks.Language]string{checks.LangPython: "py-", checks.LangJavaScript: "js-", checks.LangGo: "go-", checks.LangShell: "sh-"}
	seen := map[string]bool{}
	rules := New(Options{}).Rules()
	if len(rules) != len(catalog) {
		t.Fatalf("Rules() lists %d rules, catalog has %d", len(rules), len(catalog))
	}
	for i, r := range rules {
		cr := catalog[i]
		switch {
		case seen[r.ID]:
			t.Errorf("duplicate rule id %s", r.ID)
		case !ruleIDPattern.MatchString(r.ID) || !strings.HasPrefix(r.ID, prefix[cr.lang]):
			t.Errorf("rule id %q is not kebab-case with its language's prefix", r.ID)
		case r.Category != checks.CategoryDangerous || r.DocURL != checks.RuleDocURL(r.ID):
			t.Errorf("%s: category %q, doc %q", r.ID, r.Category, r.DocURL)
		case cr.advice == "" || cr.title == "" || r.SecuritySeverity <= 0 || r.SecuritySeverity > 10:
			t.Errorf("%s: incomplete metadata %+v", r.ID, r)
		case !planted[r.ID]:
			t.Errorf("%s: no planted example in testdata", r.ID)
		}
		seen[r.ID] = true
		doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "rules", r.ID+".md"))
		if err != nil {
			t.Errorf("%s: no doc page: %v", r.ID, err)
			continue
		}
		if !bytes.HasPrefix(doc, []byte("# "+r.ID)) {
			t.Errorf("%s: doc page does not start with its id", r.ID)
		}
	}
}

// TestEngineSuppression runs the check through the engine: suppression
// comments in each language's comment syntax silence its findings.
func TestEngineSuppression(t *testing.T) {
	e := checks.NewEngine(checks.Options{}, New(Options{}))
	tests := []struct{ path, src string }{
		{"/w/a.py", "x = eval(data)  # aisbx:ignore[py-eval]\n"},
		{"/w/a.js", "// aisbx:ignore[js-eval]\neval(data);\n"},
		{"/w/a.go", "package a\n\nimport \"crypto/md5\"\n\nvar _ = md5.Sum(nil) // aisbx:ignore\n"},
		{"/w/a.sh", "chmod 777 x # aisbx:ignore[sh-chmod-world-writable]\n"},
	}
	for _, tt := range tests {
		r := e.Run(context.Background(), checks.NewFile("/w", tt.path, []byte(tt.src)))
		if len(r.Findings) != 0 || len(r.Errors) != 0 {
			t.Errorf("%s: suppressed finding reported: %+v %v", tt.path, r.Findings, r.Errors)
		}
		unsuppressed := strings.NewReplacer("aisbx:ignore", "note").Replace(tt.src)
		if r := e.Run(context.Background(), checks.NewFile("/w", tt.path, []byte(unsuppressed))); len(r.Findings) != 1 {
			t.Errorf("%s: without the comment, findings = %+v", tt.path, r.Findings)
		}
	}
}

// FuzzRun feeds arbitrary bytes to every analyzer: a file that does not
// parse must never crash the check or yield an out-of-range finding.
func FuzzRun(f *testing.F) {
	exts := []string{".go", ".py", ".js", ".ts", ".tsx", ".sh"}
	for _, p := range corpusFiles(f) {
		b, _ := os.ReadFile(p)
		for i, e := range exts {
			if strings.HasSuffix(p, e) {
				f.Add(uint8(i), b)
			}
		}
	}
	c := New(Options{TreeCacheEntries: 8})
	f.Fuzz(func(t *testing.T, which uint8, content []byte) {
		file := checks.NewFile("/w", "/w/fuzz"+exts[int(which)%len(exts)], content)
		fs, err := c.Run(context.Background(), file)
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range fs {
			checkFinding(t, file, fd)
		}
	})
}
