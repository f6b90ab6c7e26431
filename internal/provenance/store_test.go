package provenance

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

func TestStorePersistsAndQueries(t *testing.T) {
	root := t.TempDir()
	base := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	opts := StoreOptions{Now: func() time.Time { return base.Add(time.Hour) }}
	s, err := OpenStore(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(root, "a.go")
	b := filepath.Join(root, "b.go")
	var ids []string
	for i, f := range []string{a, b, a} {
		e, err := s.Add(Edit{Tool: ToolClaudeCode, File: f, Ranges: []Range{{10, 20}, {0, 2}}, Time: base.Add(time.Duration(i) * time.Minute), Source: SourceHook, Confidence: 1})
		if err != nil {
			t.Fatal(err)
		}
		if e.ID == "" || !reflect.DeepEqual(e.Ranges, []Range{{0, 2}, {10, 20}}) {
			t.Fatalf("stored edit %+v", e)
		}
		ids = append(ids, e.ID)
	}
	if _, err := s.MarkReviewed(ids[1]); err != nil {
		t.Fatal(err)
	}
	// Lines inserted above the edits of a.go shift them; b.go's stay put.
	if n := s.MapRanges(a, LineChange{Start: 5, Inserted: 3}); n != 2 {
		t.Errorf("MapRanges changed %d edits, want 2", n)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = OpenStore(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.ByFile(a); len(got) != 2 || !reflect.DeepEqual(got[0].Ranges, []Range{{0, 2}, {13, 23}}) || got[0].ID != ids[0] {
		t.Errorf("ByFile(a) after reopening = %+v", got)
	}
	if e, ok := s.Get(ids[1]); !ok || !e.Reviewed || !reflect.DeepEqual(e.Ranges, []Range{{0, 2}, {10, 20}}) {
		t.Errorf("Get(b's edit) = %+v, %v", e, ok)
	}
	if got := s.Recent(2); len(got) != 2 || got[0].ID != ids[2] || got[1].ID != ids[1] {
		t.Errorf("Recent(2) = %v", got)
	}
	if got := s.Since(base.Add(time.Minute)); len(got) != 2 || got[0].ID != ids[1] {
		t.Errorf("Since = %v", got)
	}
	if _, err := s.MarkReviewed("nope"); err == nil {
		t.Error("MarkReviewed of an unknown id succeeded")
	}
	if _, err := s.Add(Edit{}); err == nil {
		t.Error("an edit without a file was stored")
	}
}

func TestStoreBoundsAndCompaction(t *testing.T) {
	root := t.TempDir()
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	opts := StoreOptions{MaxEdits: 50, MaxAge: 24 * time.Hour, Now: func() time.Time { return now }}
	s, err := OpenStore(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(Edit{File: "/w/old.go", Time: now.Add(-48 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 120; i++ {
		if _, err := s.Add(Edit{File: fmt.Sprintf("/w/f%d.go", i), Time: now.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Recent(1000); len(got) != 50 || got[49].File != "/w/f70.go" {
		t.Fatalf("kept %d edits, oldest %v", len(got), got[len(got)-1].File)
	}
	// A torn or foreign line is skipped and dropped at the next rewrite.
	p := filepath.Join(root, StoreDir, storeFile)
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{\"id\":\"x\",\"file\":\n")
	f.Close()
	s, err = OpenStore(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Recent(1000); len(got) != 50 {
		t.Errorf("after reopening: %d edits", len(got))
	}
	data, _ := os.ReadFile(p)
	if lines := countLines(data); lines != 50 {
		t.Errorf("the file holds %d records after compaction, want 50", lines)
	}
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

// TestStoreConcurrent adds, maps and reads from many goroutines (run with
// -race).
func TestStoreConcurrent(t *testing.T) {
	root := t.TempDir()
	s, err := OpenStore(root, StoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				file := fmt.Sprintf("/w/g%d.go", g%2)
				if _, err := s.Add(Edit{File: file, Ranges: []Range{{i, i + 1}}}); err != nil {
					t.Error(err)
				}
				s.MapRanges(file, LineChange{Start: 0, Inserted: 1})
				s.ByFile(file)
				s.Recent(5)
			}
		}(g)
	}
	wg.Wait()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := OpenStore(root, StoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s2.Recent(1000)); n != 160 {
		t.Errorf("%d edits after reopening, want 160", n)
	}
}
