package vulndb

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/aisbx/aisbx/internal/inventory"
	"github.com/aisbx/aisbx/internal/vulndb/synth"
)

var (
	benchOnce sync.Once
	benchDir  string
	benchPkgs []inventory.Package
	benchErr  error
)

// benchStore imports a synthetic npm export once per test binary:
// advisories for a fifth of a 1,500-package project plus 50,000 for other
// names, about the size of OSV's npm export without its malware records.
func benchStore(b *testing.B) (string, []inventory.Package) {
	b.Helper()
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "vulndb-bench-")
		if err != nil {
			benchErr = err
			return
		}
		benchDir, benchPkgs, benchErr = makeBenchStore(dir)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir, benchPkgs
}

func makeBenchStore(tmp string) (string, []inventory.Package, error) {
	_, _, pkgs := synth.NPMProject(1500, 1)
	var zipBuf bytes.Buffer
	if err := synth.WriteZip(&zipBuf, synth.NPMAdvisories(pkgs, 50000, 2)); err != nil {
		return "", nil, err
	}
	src := filepath.Join(tmp, "src", "npm", "all.zip")
	os.MkdirAll(filepath.Dir(src), 0o755)
	if err := os.WriteFile(src, zipBuf.Bytes(), 0o644); err != nil {
		return "", nil, err
	}
	dir := filepath.Join(tmp, "db")
	if _, err := Import(context.Background(), dir, src, ImportOptions{}); err != nil {
		return "", nil, err
	}
	var inv []inventory.Package
	for _, p := range pkgs {
		inv = append(inv, inventory.Package{Ecosystem: inventory.NPM, Name: p.Name, Version: p.Version})
	}
	return dir, inv, nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(filepath.Dir(benchDir))
	}
	os.Exit(code)
}

// BenchmarkOpen measures loading the on-disk index of ~51,000 advisories.
func BenchmarkOpen(b *testing.B) {
	dir, _ := benchStore(b)
	b.ReportAllocs()
	for b.Loop() {
		s, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkMatch1500Cold opens the store and matches 1,500 packages, as a
// one-shot CLI run does.
func BenchmarkMatch1500Cold(b *testing.B) {
	dir, pkgs := benchStore(b)
	b.ReportAllocs()
	for b.Loop() {
		s, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range pkgs {
			if _, err := s.Match(p); err != nil {
				b.Fatal(err)
			}
		}
		s.Close()
	}
}

// BenchmarkMatch1500Warm matches 1,500 packages against an open store with
// decoded advisories cached, as the daemon does on each lockfile edit.
func BenchmarkMatch1500Warm(b *testing.B) {
	dir, pkgs := benchStore(b)
	s, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pkgs {
			if _, err := s.Match(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}
