package provenance

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

func BenchmarkStoreAdd(b *testing.B) {
	s, err := OpenStore(b.TempDir(), StoreOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Add(Edit{Tool: ToolClaudeCode, File: fmt.Sprintf("/w/f%d.go", i%200), Ranges: []Range{{i % 50, i%50 + 10}}, Source: SourceHook, Confidence: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// filledStore holds 5,000 edits over 200 files.
func filledStore(b *testing.B) *Store {
	s, err := OpenStore(b.TempDir(), StoreOptions{})
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now().Add(-time.Hour)
	for i := 0; i < 5000; i++ {
		s.put(&Edit{ID: fmt.Sprint(i), File: fmt.Sprintf("/w/f%d.go", i%200), Ranges: []Range{{i % 50, i%50 + 10}, {100, 120}}, Time: t0.Add(time.Duration(i) * time.Millisecond)})
	}
	return s
}

func BenchmarkStoreQuery(b *testing.B) {
	s := filledStore(b)
	b.Run("ByFile", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if len(s.ByFile("/w/f7.go")) != 25 {
				b.Fatal("wrong count")
			}
		}
	})
	b.Run("Recent20", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			s.Recent(20)
		}
	})
	b.Run("Since", func(b *testing.B) {
		since := time.Now().Add(-time.Hour).Add(4900 * time.Millisecond)
		for i := 0; i < b.N; i++ {
			s.Since(since)
		}
	})
}

// BenchmarkStoreMapRanges is the cost a keystroke pays: one line change
// carried through a file's edits, in a store of 5,000.
func BenchmarkStoreMapRanges(b *testing.B) {
	s := filledStore(b)
	for i := 0; i < b.N; i++ {
		s.MapRanges("/w/f7.go", LineChange{Start: 60, Deleted: 1, Inserted: 1 + i%2})
	}
}

func BenchmarkMapRanges(b *testing.B) {
	rs := []Range{{0, 10}, {20, 30}, {40, 50}, {60, 70}, {80, 90}}
	for i := 0; i < b.N; i++ {
		MapRanges(rs, LineChange{Start: 45, Deleted: 2, Inserted: 3})
	}
}

// BenchmarkRangesFromDiff: a 2,000-line file with a 30-line block inserted
// and two lines changed elsewhere.
func BenchmarkRangesFromDiff(b *testing.B) {
	var before, after bytes.Buffer
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&before, "line %d\n", i)
		switch i {
		case 500:
			for j := 0; j < 30; j++ {
				fmt.Fprintf(&after, "inserted %d\n", j)
			}
		case 900, 1500:
			fmt.Fprintf(&after, "changed %d\n", i)
			continue
		}
		fmt.Fprintf(&after, "line %d\n", i)
	}
	b.SetBytes(int64(after.Len()))
	for i := 0; i < b.N; i++ {
		if got := RangesFromDiff(before.Bytes(), after.Bytes()); len(got) != 3 {
			b.Fatalf("ranges %v", got)
		}
	}
}
