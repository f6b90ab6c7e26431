package secrets

import (
	"bytes"
	"flag"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "regenerate testdata from testdata/templates and rewrite golden files")

// The corpus is generated: testdata/templates/<set>/<path>.tmpl become
// testdata/<set>/<path>, with {{kind}} replaced by a fresh fake of that
// kind and the expectations taken out of the text:
//
//	var token = "{{ghp}}" ⟦github-pat⟧
//
// says that line must get exactly one github-pat finding. Lines without a
// marker must get none. Expectations go to testdata/expected/<set>.txt as
// "path:line rule", so other scanners can be scored against the same list.

var (
	placeholderRe = regexp.MustCompile(`\{\{([a-z0-9-]+)\}\}`)
	markerRe      = regexp.MustCompile(`[ \t]*⟦([a-z0-9 -]+)⟧`)
)

// expectation is one planted secret.
type expectation struct {
	path string // relative to the set's directory
	line int    // 1-based
	rule string
}

// planted is one generated value and its kind.
type planted struct{ kind, value string }

func (e expectation) String() string { return fmt.Sprintf("%s:%d %s", e.path, e.line, e.rule) }

// generated is the output of one template set.
type generated struct {
	files    map[string][]byte // path relative to the set -> content
	expected []expectation
	planted  []planted // every fake value, for redaction tests
}

func generateSet(set string) (*generated, error) {
	root := filepath.Join("testdata", "templates", set)
	g := &generated{files: map[string][]byte{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".tmpl") {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(strings.TrimSuffix(rel, ".tmpl"))
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		h := fnv.New64a()
		h.Write([]byte(set + "/" + rel))
		r := &rng{s: h.Sum64()}
		var out bytes.Buffer
		line := 1
		for _, l := range strings.SplitAfter(string(src), "\n") {
			var rules []string
			if m := markerRe.FindStringSubmatchIndex(l); m != nil {
				rules = strings.Fields(l[m[2]:m[3]])
				l = l[:m[0]] + l[m[1]:]
			}
			var ferr error
			l = placeholderRe.ReplaceAllStringFunc(l, func(ph string) string {
				kind := ph[2 : len(ph)-2]
				v, err := fake(kind, r)
				if err != nil {
					ferr = err
				}
				g.planted = append(g.planted, planted{kind: kind, value: v})
				return v
			})
			if ferr != nil {
				return fmt.Errorf("%s:%d: %w", p, line, ferr)
			}
			for _, rule := range rules {
				if ruleByID(rule) == nil {
					return fmt.Errorf("%s:%d: unknown rule %q in marker", p, line, rule)
				}
				g.expected = append(g.expected, expectation{path: rel, line: line, rule: rule})
			}
			out.WriteString(l)
			line += strings.Count(l, "\n")
		}
		g.files[rel] = out.Bytes()
		return nil
	})
	sort.Slice(g.expected, func(i, j int) bool {
		a, b := g.expected[i], g.expected[j]
		if a.path != b.path {
			return a.path < b.path
		}
		if a.line != b.line {
			return a.line < b.line
		}
		return a.rule < b.rule
	})
	return g, err
}

func expectedText(exps []expectation) []byte {
	var b bytes.Buffer
	b.WriteString("# path:line rule — generated from testdata/templates; do not edit\n")
	for _, e := range exps {
		b.WriteString(e.String() + "\n")
	}
	return b.Bytes()
}

// readExpected parses testdata/expected/<set>.txt.
func readExpected(set string) ([]expectation, error) {
	data, err := os.ReadFile(filepath.Join("testdata", "expected", set+".txt"))
	if err != nil {
		return nil, err
	}
	var out []expectation
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		loc, rule, ok := strings.Cut(l, " ")
		i := strings.LastIndexByte(loc, ':')
		if !ok || i < 0 {
			return nil, fmt.Errorf("bad expectation %q", l)
		}
		n, err := strconv.Atoi(loc[i+1:])
		if err != nil {
			return nil, fmt.Errorf("bad expectation %q: %w", l, err)
		}
		out = append(out, expectation{path: loc[:i], line: n, rule: rule})
	}
	return out, nil
}

var corpusSets = []string{"corpus", "engine", "gitleaks-workspace", "fixes", "redact", "bad-gitleaks", "gitleaks-old-config"}

// TestCorpusIsGenerated keeps the corpus and its expectations in step with
// the templates; run with -update after editing a template.
func TestCorpusIsGenerated(t *testing.T) {
	for _, set := range corpusSets {
		t.Run(set, func(t *testing.T) {
			g, err := generateSet(set)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.files) == 0 {
				t.Fatalf("no templates in testdata/templates/%s", set)
			}
			dir := filepath.Join("testdata", set)
			expPath := filepath.Join("testdata", "expected", set+".txt")
			if *update {
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
				for rel, content := range g.files {
					p := filepath.Join(dir, filepath.FromSlash(rel))
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, content, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.MkdirAll(filepath.Dir(expPath), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(expPath, expectedText(g.expected), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for rel, want := range g.files {
				got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s/%s is stale (err %v); run go test -run TestCorpusIsGenerated -update", set, rel, err)
				}
			}
			got, err := os.ReadFile(expPath)
			if err != nil || !bytes.Equal(got, expectedText(g.expected)) {
				t.Errorf("%s is stale (err %v); run with -update", expPath, err)
			}
		})
	}
}
