package vulns

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/vulndb"
	"github.com/aisbx/aisbx/internal/vulndb/synth"
)

// BenchmarkRunPackageLock1500 is the on-save cost of a 1,500-package
// package-lock.json in the daemon: parse, look up, build findings, with
// the store open (advisories for a fifth of the packages, 5,000 others).
func BenchmarkRunPackageLock1500(b *testing.B) {
	pj, lock, pkgs := synth.NPMProject(1500, 1)
	tmp := b.TempDir()
	var zipBuf bytes.Buffer
	if err := synth.WriteZip(&zipBuf, synth.NPMAdvisories(pkgs, 5000, 2)); err != nil {
		b.Fatal(err)
	}
	src := filepath.Join(tmp, "src", "npm", "all.zip")
	os.MkdirAll(filepath.Dir(src), 0o755)
	os.WriteFile(src, zipBuf.Bytes(), 0o644)
	db := filepath.Join(tmp, "db")
	if _, err := vulndb.Import(context.Background(), db, src, vulndb.ImportOptions{}); err != nil {
		b.Fatal(err)
	}
	proj := filepath.Join(tmp, "project")
	os.MkdirAll(proj, 0o755)
	os.WriteFile(filepath.Join(proj, "package.json"), pj, 0o644)
	path := filepath.Join(proj, "package-lock.json")
	os.WriteFile(path, lock, 0o644)
	c := New(Options{DBDir: db})
	defer c.Close()
	f := checks.NewFile(proj, path, lock)
	b.SetBytes(int64(len(lock)))
	b.ReportAllocs()
	for b.Loop() {
		fs, err := c.Run(context.Background(), f)
		if err != nil || len(fs) == 0 {
			b.Fatalf("%d findings, %v", len(fs), err)
		}
	}
}
