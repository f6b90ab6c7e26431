package testresults

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// bigStream repeats a captured run with each copy's packages or test ids
// renamed, so the parser sees n distinct packages' worth of real output.
func bigStream(b *testing.B, fixture, old string, n int) []byte {
	b.Helper()
	out, err := os.ReadFile(filepath.Join("testdata", "fixtures", fixture+".out"))
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	for i := range n {
		buf.Write(bytes.ReplaceAll(out, []byte(old), []byte(fmt.Sprintf("%s%d/", old, i))))
	}
	return buf.Bytes()
}

// BenchmarkParseGoStream parses a ~20 MB `go test -json` stream (the
// go_mixed fixture, 1,500 times over) in 32 KiB chunks, as the sandbox
// streams it. Side by side: decoding the same lines with encoding/json
// alone (the floor), and gotestsum (the usual reference tool, as a process
// reading the stream from cat) when it is on PATH.
func BenchmarkParseGoStream(b *testing.B) {
	stream := bigStream(b, "go_mixed", "example.com/fixture/", 1500)
	b.Run("aisbx", func(b *testing.B) {
		b.SetBytes(int64(len(stream)))
		var s *Summary
		for b.Loop() {
			p := NewParser(ParseOptions{Workdir: fixtureWorkdir, OnEvent: func(Event) {}})
			for off := 0; off < len(stream); off += 32 << 10 {
				p.Write(stream[off:min(off+32<<10, len(stream))])
			}
			s = p.Close()
		}
		b.ReportMetric(float64(s.Total), "results")
	})
	b.Run("json-decode-only", func(b *testing.B) {
		b.SetBytes(int64(len(stream)))
		for b.Loop() {
			for _, line := range bytes.Split(stream, []byte("\n")) {
				var ev goEvent
				_ = json.Unmarshal(line, &ev)
			}
		}
	})
	b.Run("gotestsum", func(b *testing.B) {
		gotestsum, err := exec.LookPath("gotestsum")
		if err != nil {
			b.Skip("gotestsum not on PATH (go install gotest.tools/gotestsum@v1.13.0)")
		}
		f := filepath.Join(b.TempDir(), "stream.json")
		if err := os.WriteFile(f, stream, 0o644); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(stream)))
		for b.Loop() {
			cmd := exec.Command(gotestsum, "--format", "dots", "--no-summary=output", "--raw-command", "--", "cat", f)
			cmd.Stdout, cmd.Stderr = nil, nil
			// It exits non-zero: the stream has failures.
			_ = cmd.Run()
		}
	})
}

// BenchmarkParsePytestStream parses the pytest_mixed fixture 1,000 times
// over: "@aisbx:" lines among pytest's own output.
func BenchmarkParsePytestStream(b *testing.B) {
	stream := bigStream(b, "pytest_mixed", "tests/", 1000)
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		p := NewParser(ParseOptions{Workdir: fixtureWorkdir})
		for off := 0; off < len(stream); off += 32 << 10 {
			p.Write(stream[off:min(off+32<<10, len(stream))])
		}
		p.Close()
	}
}
