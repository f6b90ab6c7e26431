package watcher

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// makeTree lays out files files, 50 per directory, three levels deep, the
// shape of a mid-sized monorepo. Set AISBX_BENCH_TREE to reuse a tree that
// bench/watcher.sh made.
func makeTree(b *testing.B, files int) string {
	b.Helper()
	if dir := os.Getenv("AISBX_BENCH_TREE"); dir != "" {
		return dir
	}
	root := b.TempDir()
	if err := makeBenchTree(root, files); err != nil {
		b.Fatal(err)
	}
	return root
}

// makeBenchTree lays the tree out below root;
// bench/watcher.sh calls it through `go test -run TestMakeBenchTree`.
func makeBenchTree(root string, files int) error {
	const perDir = 50
	for i := 0; i < files; i++ {
		d := i / perDir
		dir := filepath.Join(root, fmt.Sprintf("m%02d", d%20), fmt.Sprintf("p%02d", d/20%10), fmt.Sprintf("s%03d", d/200))
		if i%perDir == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.go", i%perDir)), []byte("package x\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestMakeBenchTree builds the benchmark tree where AISBX_MAKE_TREE says, for
// bench/watcher.sh; it does nothing otherwise.
func TestMakeBenchTree(t *testing.T) {
	dir := os.Getenv("AISBX_MAKE_TREE")
	if dir == "" {
		t.Skip("AISBX_MAKE_TREE not set: only bench/watcher.sh uses this")
	}
	n, _ := strconv.Atoi(os.Getenv("AISBX_MAKE_TREE_FILES"))
	if n <= 0 {
		n = 100000
	}
	if err := makeBenchTree(dir, n); err != nil {
		t.Fatal(err)
	}
}

func rssBytes() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			kb, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// BenchmarkSetup100k: time until New returns on a 100,000-file tree (every
// directory watched, every file stat'ed), and the memory the watcher keeps.
func BenchmarkSetup100k(b *testing.B) {
	root := makeTree(b, 100000)
	var heap, rss int64
	var st Status
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		runtime.GC()
		var m0 runtime.MemStats
		runtime.ReadMemStats(&m0)
		r0 := rssBytes()
		b.StartTimer()
		w, err := New(context.Background(), root, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.GC()
		var m1 runtime.MemStats
		runtime.ReadMemStats(&m1)
		heap += int64(m1.HeapAlloc) - int64(m0.HeapAlloc)
		rss += rssBytes() - r0
		st = w.Status()
		w.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(heap)/float64(b.N), "heap-B")
	b.ReportMetric(float64(rss)/float64(b.N), "rss-B")
	b.ReportMetric(float64(st.Watches), "watches")
	b.ReportMetric(float64(st.Files), "files")
}

// BenchmarkLatency: from the end of a write to the batch in the consumer's
// hands. The settle window dominates; the second case shows the rest.
func BenchmarkLatency(b *testing.B) {
	for _, debounce := range []time.Duration{DefaultDebounce, 5 * time.Millisecond} {
		b.Run("debounce="+debounce.String(), func(b *testing.B) {
			root := b.TempDir()
			w, err := New(context.Background(), root, Options{Debounce: debounce})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p := filepath.Join(root, fmt.Sprintf("f%d.go", i%50))
				if err := os.WriteFile(p, []byte(strconv.Itoa(i)), 0o644); err != nil {
					b.Fatal(err)
				}
				t0 := time.Now()
				for got := false; !got; {
					for _, e := range <-w.Events() {
						got = got || e.Path == p
					}
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
}

// BenchmarkBurst1000: an agent writes 1,000 times over 200 files; time from
// the first write until every file was delivered. write-ms is the part the
// file system itself took.
func BenchmarkBurst1000(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, "burst")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	w, err := New(context.Background(), root, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	var writing time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		for j := 0; j < 1000; j++ {
			p := filepath.Join(dir, fmt.Sprintf("f%03d.go", j%200))
			if err := os.WriteFile(p, []byte(fmt.Sprintf("// %d %d\n", i, j)), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		writing += time.Since(t0)
		seen := map[string]bool{}
		for len(seen) < 200 {
			for _, e := range <-w.Events() {
				if e.Time.After(t0) || e.Time.Equal(t0) {
					seen[e.Path] = true
				}
			}
		}
	}
	b.ReportMetric(float64(writing.Milliseconds())/float64(b.N), "write-ms")
}
