package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCheckTree runs `aisbxd check` over a tree through Main, with the
// engine builtin.NewEngine assembles, and reports files/s and MB/s (one
// iteration is one whole run). AISBX_BENCH_TREE picks the tree (default:
// $GOROOT/src/net/http); AISBX_BENCH_CONFIG an aisbx.toml (default: every
// check but linters, whose cost is the tools'); AISBX_BENCH_BATCH=0 runs
// each linter once per file instead of in batches. bench/check.sh runs it
// over a copy of the Go source tree beside gitleaks, bench/check-linters.sh
// over Python's standard library with bandit.
func BenchmarkCheckTree(b *testing.B) {
	tree := os.Getenv("AISBX_BENCH_TREE")
	if tree == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			b.Skip("no go toolchain to find GOROOT")
		}
		tree = filepath.Join(strings.TrimSpace(string(out)), "src", "net", "http")
	}
	cfg := os.Getenv("AISBX_BENCH_CONFIG")
	if cfg == "" {
		cfg = filepath.Join(b.TempDir(), "aisbx.toml")
		if err := os.WriteFile(cfg, []byte("[checks]\nenabled = [\"secrets\", \"dangerous\", \"deps\", \"vulns\"]\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if os.Getenv("AISBX_BENCH_BATCH") == "0" {
		batchLinters = false
		b.Cleanup(func() { batchLinters = true })
	}
	out := filepath.Join(b.TempDir(), "report.json")
	args := []string{"check", "--format", "json", "--fail-on", "never", "--config", cfg, "--output", out, tree}
	var files, bytesScanned, findings int
	var stderr bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &stderr, Getenv: func(string) string { return "" }}
	for b.Loop() {
		if code := Main(context.Background(), args, env); code != ExitOK {
			b.Fatalf("exit %d: %s", code, stderr.String())
		}
	}
	b.StopTimer()
	data, err := os.ReadFile(out)
	if err != nil {
		b.Fatal(err)
	}
	var rep struct {
		Findings     []json.RawMessage `json:"findings"`
		FilesScanned int               `json:"files_scanned"`
		BytesScanned int               `json:"bytes_scanned"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		b.Fatal(err)
	}
	files, bytesScanned, findings = rep.FilesScanned, rep.BytesScanned, len(rep.Findings)
	perRun := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(files)/perRun, "files/s")
	b.ReportMetric(float64(bytesScanned)/perRun/1e6, "MB/s")
	b.ReportMetric(float64(files), "files")
	b.ReportMetric(float64(bytesScanned), "bytes")
	b.ReportMetric(float64(findings), "findings")
	// Checks that failed on a file (timeouts on a loaded machine) lower the
	// findings count; say how many.
	b.ReportMetric(float64(strings.Count(stderr.String(), "aisbxd check: warning:"))/float64(b.N), "check-errors")
}
