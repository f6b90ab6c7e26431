package secrets

import (
	"bytes"
	"context"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aisbx/aisbx/checks"
)

// goSourceTree is the tree the throughput benchmarks scan: $AISBX_BENCH_TREE
// or GOROOT/src.
func goSourceTree() string {
	if d := os.Getenv("AISBX_BENCH_TREE"); d != "" {
		return d
	}
	return filepath.Join(build.Default.GOROOT, "src")
}

var (
	fillerOnce sync.Once
	filler     []byte
)

// benchInput returns size bytes of realistic source: a corpus file with
// planted secrets followed by real Go source, cut at a line end.
func benchInput(b *testing.B, size int) []byte {
	fillerOnce.Do(func() {
		var buf bytes.Buffer
		if data, err := os.ReadFile(filepath.Join("testdata", "corpus", "config.go")); err == nil {
			buf.Write(data)
		}
		for _, p := range []string{"net/http/server.go", "encoding/json/decode.go", "go/parser/parser.go", "crypto/tls/handshake_client.go", "runtime/proc.go", "cmd/compile/internal/ssa/rewriteAMD64.go"} {
			if data, err := os.ReadFile(filepath.Join(goSourceTree(), p)); err == nil {
				buf.Write(data)
			}
		}
		filler = buf.Bytes()
	})
	if len(filler) == 0 {
		b.Skip("no source to build benchmark inputs from")
	}
	var in []byte
	for len(in) < size {
		in = append(in, filler...)
	}
	in = in[:size]
	if i := bytes.LastIndexByte(in, '\n'); i > size/2 {
		in = in[:i+1]
	}
	return in
}

var benchSizes = []struct {
	name string
	size int
}{{"0.3KB", 300}, {"10KB", 10 << 10}, {"131KB", 131 << 10}, {"1MB", 1 << 20}}

// reportLatency adds p50 and p95 of per-call durations to the benchmark.
func reportLatency(b *testing.B, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	pct := func(p float64) float64 { return float64(ds[int(p*float64(len(ds)-1))].Nanoseconds()) / 1e3 }
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.95), "p95-µs")
}

// BenchmarkOnSave is the daemon's on-save path for the secrets check: an
// Engine run (suppressions, sorting) with the cache off, per file size.
func BenchmarkOnSave(b *testing.B) {
	c, err := New(DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	eng := checks.NewEngine(checks.Options{CacheEntries: -1}, c)
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			f := checks.NewFile("/w", "/w/config.go", benchInput(b, sz.size))
			b.SetBytes(int64(len(f.Content)))
			ds := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for b.Loop() {
				t0 := time.Now()
				r := eng.Run(context.Background(), f)
				ds = append(ds, time.Since(t0))
				if len(r.Errors) > 0 {
					b.Fatal(r.Errors)
				}
			}
			reportLatency(b, ds)
		})
	}
}

// BenchmarkScan is Check.Run alone.
func BenchmarkScan(b *testing.B) {
	c, err := New(DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			f := checks.NewFile("/w", "/w/config.go", benchInput(b, sz.size))
			b.SetBytes(int64(len(f.Content)))
			for b.Loop() {
				if _, err := c.Run(context.Background(), f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPrefilter is the keyword pass alone, over 1 MB.
func BenchmarkPrefilter(b *testing.B) {
	s := newScanner(DefaultEntropyThreshold, nil)
	in := benchInput(b, 1<<20)
	b.SetBytes(int64(len(in)))
	hits := make([]hit, 0, 4096)
	for b.Loop() {
		hits = s.pf.scan(in, hits[:0])
	}
}

// BenchmarkRedactText masks a 10 KB log.
func BenchmarkRedactText(b *testing.B) {
	g, err := generateSet("redact")
	if err != nil {
		b.Fatal(err)
	}
	var log []byte
	for len(log) < 10<<10 {
		for _, data := range g.files {
			log = append(log, data...)
		}
	}
	b.SetBytes(int64(len(log)))
	for b.Loop() {
		RedactText(log)
	}
}

// BenchmarkTree scans a copy of the Go source tree the way `aisbxd check`
// would (read, skip binaries, scan) with one worker per CPU, and reports
// MB/s. Set AISBX_BENCH_TREE to scan another tree.
func BenchmarkTree(b *testing.B) {
	root := goSourceTree()
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil || len(paths) == 0 {
		b.Skipf("no tree at %s: %v", root, err)
	}
	c, err := New(DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	var total atomic.Int64
	for b.Loop() {
		total.Store(0)
		ch := make(chan string, 256)
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				for p := range ch {
					data, err := os.ReadFile(p)
					if err != nil || len(data) > 10<<20 {
						continue
					}
					total.Add(int64(len(data)))
					f := checks.NewFile(root, p, data)
					if c.Applies(f) {
						if _, err := c.Run(context.Background(), f); err != nil {
							b.Error(err)
						}
					}
				}
			})
		}
		for _, p := range paths {
			ch <- p
		}
		close(ch)
		wg.Wait()
	}
	b.SetBytes(total.Load())
	b.ReportMetric(float64(len(paths)), "files")
}

// BenchmarkPathological scans 1 MB inputs built to make a careless scanner
// quadratic: every one of them should run at the speed of ordinary source.
func BenchmarkPathological(b *testing.B) {
	c, err := New(DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	for _, unit := range []string{
		"eyJ.", "-----BEGIN RSA PRIVATE KEY-----\n", "token=", "a://", "password = '", "AccountKey=",
		"sk-", "key", "ghp_", `"secret": "`,
	} {
		b.Run(strings.Trim(unit, "\n\"' :="), func(b *testing.B) {
			in := bytes.Repeat([]byte(unit), (1<<20)/len(unit))
			f := checks.NewFile("/w", "/w/x.txt", in)
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if _, err := c.Run(context.Background(), f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
