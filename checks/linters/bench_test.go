package linters

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/aisbx/aisbx/checks"
)

// BenchmarkESLintToFindings measures the hot path after a tool returns:
// parsing its JSON and converting UTF-16 positions and fix offsets, over a
// 130 KB buffer with a finding on every line.
func BenchmarkESLintToFindings(b *testing.B) {
	root := b.TempDir()
	line := []byte("const s = \"😀\"; if (s == \"x\") { undefinedFn(); }\n")
	content := bytes.Repeat(line, 131<<10/len(line))
	var out bytes.Buffer
	out.WriteString(`{"results":[{"filePath":"x.js","messages":[`)
	for i := range bytes.Count(content, []byte("\n")) {
		if i > 0 {
			out.WriteByte(',')
		}
		off := i*len([]rune(string(line))) + 22 + i // UTF-16 offset of "==": one extra unit per emoji
		out.WriteString(`{"ruleId":"eqeqeq","severity":2,"message":"Expected '===' and instead saw '=='.","line":` + strconv.Itoa(i+1) +
			`,"column":23,"endLine":` + strconv.Itoa(i+1) + `,"endColumn":25,"suggestions":[{"desc":"Use '==='","fix":{"range":[` + strconv.Itoa(off) + `,` + strconv.Itoa(off+2) + `],"text":"==="}}]}`)
	}
	out.WriteString(`]}],"metadata":{"rulesMeta":{"eqeqeq":{"docs":{"url":"https://eslint.org/docs/latest/rules/eqeqeq"}}}}}`)
	path := filepath.Join(root, "x.js")
	if err := os.WriteFile(path, content, 0o644); err != nil {
		b.Fatal(err)
	}
	f := checks.NewFile(root, path, content)
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		ds, err := parseESLint(out.Bytes())
		if err != nil {
			b.Fatal(err)
		}
		if fs := toFindings(eslintTool, f, ds); len(fs) != len(ds) {
			b.Fatalf("%d findings from %d diagnostics", len(fs), len(ds))
		}
	}
}
