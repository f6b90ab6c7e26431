package dangerous

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/checks/dangerous/internal/corpus"
	"github.com/aisbx/aisbx/internal/textpos"
)

// corpusFiles lists the planted corpus: dangerous and safe code per
// language, with the expected rules marked in the files.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path == filepath.Join("testdata", "fixes") {
			return filepath.SkipDir
		}
		if !d.IsDir() && checks.DetectLanguage(path, nil) != checks.LangText {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no corpus files under testdata")
	}
	return files
}

func loadFile(t testing.TB, path string) *checks.File {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(path)
	return checks.NewFile(filepath.Dir(abs), abs, b)
}

// TestCorpus asserts full recall and zero false positives: every planted
// expectation is found, and nothing else is reported.
func TestCorpus(t *testing.T) {
	c := New(Options{})
	for _, path := range corpusFiles(t) {
		t.Run(filepath.ToSlash(path), func(t *testing.T) {
			t.Parallel()
			f := loadFile(t, path)
			if !c.Applies(f) {
				t.Fatalf("check does not apply to %s (%s)", path, f.Language)
			}
			got, err := c.Run(context.Background(), f)
			if err != nil {
				t.Fatal(err)
			}
			idx := textpos.NewIndex(f.Content)
			var gs []corpus.Got
			for _, fd := range got {
				checkFinding(t, f, fd)
				gs = append(gs, corpus.Got{Line: idx.LineOf(fd.Start) + 1, Rules: []string{fd.Rule}, Label: fd.Rule})
			}
			s := corpus.Compare(corpus.Wants(f.Content), gs)
			for _, w := range s.Missed {
				t.Errorf("missed %s on line %d: %s", w.Rule, w.Line, strings.TrimSpace(string(idx.Line(w.Line-1))))
			}
			for _, g := range s.Extra {
				t.Errorf("false positive %s on line %d: %s", g.Label, g.Line, strings.TrimSpace(string(idx.Line(g.Line-1))))
			}
		})
	}
}

// checkFinding asserts what every finding must carry.
func checkFinding(t *testing.T, f *checks.File, fd checks.Finding) {
	t.Helper()
	r, ok := rulesByID[fd.Rule]
	switch {
	case !ok:
		t.Errorf("finding with unknown rule %q", fd.Rule)
	case fd.Category != checks.CategoryDangerous || fd.DocURL != checks.RuleDocURL(fd.Rule):
		t.Errorf("%s: category %q, doc %q", fd.Rule, fd.Category, fd.DocURL)
	case fd.Start < 0 || fd.End <= fd.Start || fd.End > len(f.Content):
		t.Errorf("%s: bad range [%d,%d) in %d bytes", fd.Rule, fd.Start, fd.End, len(f.Content))
	case !strings.HasSuffix(fd.Message, r.advice):
		t.Errorf("%s: message %q does not name the safe alternative", fd.Rule, fd.Message)
	case fd.Severity < checks.SeverityError || fd.Severity > checks.SeverityHint:
		t.Errorf("%s: severity %v", fd.Rule, fd.Severity)
	}
	for _, fx := range fd.Fixes {
		for _, e := range fx.Edits {
			if e.Start < 0 || e.End < e.Start || e.End > len(f.Content) {
				t.Errorf("%s: fix %q edits [%d,%d) out of range", fd.Rule, fx.Title, e.Start, e.End)
			}
		}
	}
}
