package inventory

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the want.txt files from what the parsers produce")

// formatSource renders what a parser found, one package a line, with the
// text the location points at so that a reader can check it by eye.
func formatSource(t *testing.T, dir string, s *Source) string {
	t.Helper()
	content, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(s.Path)))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "== %s (%s) project=%q\n", s.Path, s.Kind, s.Project.Name+"@"+s.Project.Version)
	for _, p := range s.Packages {
		dev := ""
		if p.Dev {
			dev = " dev"
		}
		at := string(content[p.Location.Span.Start:p.Location.Span.End])
		pin := ""
		if !p.Pin.Empty() {
			pin = " pin=" + string(content[p.Pin.Start:p.Pin.End])
		}
		fmt.Fprintf(&b, "%s %s@%s %s%s line=%d at=%q%s", p.Ecosystem, p.Name, p.Version, p.Relation, dev, p.Location.Line, at, pin)
		if p.Constraint != "" {
			fmt.Fprintf(&b, " constraint=%q", p.Constraint)
		}
		if len(p.Deps) > 0 {
			fmt.Fprintf(&b, " deps=%s", strings.Join(p.Deps, ","))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestScan reads every sample workspace in testdata and compares each
// file's packages with want.txt. The npm, pnpm and yarn lockfiles were
// produced by the real tools (npm 6, 8 and 11; pnpm 7, 8 and 9; yarn 1
// and 4) from the same package.json; go.mod and go.sum by `go mod tidy`.
func TestScan(t *testing.T) {
	dirs, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || filepath.Base(dir) == "bad" {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			inv, err := Scan(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range inv.Errors {
				t.Errorf("scan error: %v", e)
			}
			var got strings.Builder
			for _, s := range inv.Sources {
				got.WriteString(formatSource(t, dir, s))
			}
			got.WriteString("== effective\n")
			for _, p := range inv.Packages() {
				fmt.Fprintf(&got, "%s %s:%d\n", p.PURL(), p.Location.File, p.Location.Line)
			}
			wantFile := filepath.Join(dir, "want.txt")
			if *update {
				if err := os.WriteFile(wantFile, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatalf("%v (run with -update to create it, then check it by eye)", err)
			}
			if got.String() != string(want) {
				t.Errorf("packages differ from %s\n--- got\n%s\n--- want\n%s", wantFile, got.String(), want)
			}
		})
	}
}
