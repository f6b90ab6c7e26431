package vulndb

import (
	"archive/zip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/internal/inventory"
)

// fixtureZips lays the fixture advisories out as OSV's exports:
// <dir>/<ecosystem>/all.zip.
func fixtureZips(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, eco := range Ecosystems {
		files, err := filepath.Glob(filepath.Join("testdata", "osv", eco, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no fixture advisories for %s: %v", eco, err)
		}
		if err := os.MkdirAll(filepath.Join(dir, eco), 0o755); err != nil {
			t.Fatal(err)
		}
		out, err := os.Create(filepath.Join(dir, eco, "all.zip"))
		if err != nil {
			t.Fatal(err)
		}
		zw := zip.NewWriter(out)
		for _, f := range files {
			w, err := zw.Create(filepath.Base(f))
			if err != nil {
				t.Fatal(err)
			}
			in, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.Copy(w, in); err != nil {
				t.Fatal(err)
			}
			in.Close()
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func fixtureStore(t testing.TB) *Store {
	t.Helper()
	src := fixtureZips(t)
	dir := t.TempDir()
	if _, err := Import(context.Background(), dir, src, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestMatchFixtures(t *testing.T) {
	s := fixtureStore(t)
	metas := s.Loaded()
	if len(metas) != 3 {
		t.Fatalf("loaded %d ecosystems, want 3: %+v", len(metas), metas)
	}
	for _, line := range readCases(t, "matches.txt") {
		f := strings.Fields(line)
		p := inventory.Package{Ecosystem: inventory.Ecosystem(f[0]), Name: f[1], Version: f[2]}
		ms, err := s.Match(p)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		var got []string
		for _, m := range ms {
			fixed := m.Fixed
			if fixed == "" {
				fixed = "-"
			}
			got = append(got, m.Advisory.ID+":"+fixed)
		}
		sort.Strings(got)
		want := f[3:]
		if len(want) == 1 && want[0] == "-" {
			want = nil
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s %s %s: got %v, want %v", f[0], f[1], f[2], got, want)
		}
	}
}

func TestImportStatusAndRefresh(t *testing.T) {
	src := fixtureZips(t)
	dir := t.TempDir()
	ctx := context.Background()

	// An ecosystem's own export fills only that ecosystem, even though
	// some advisories name others.
	res, err := Import(ctx, dir, filepath.Join(src, "npm", "all.zip"), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Stored) != 1 || res.Stored[0].Ecosystem != "npm" || res.Stored[0].Advisories != 4 {
		t.Fatalf("npm import stored %+v", res.Stored)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if ms, _ := s.Match(inventory.Package{Ecosystem: inventory.PyPI, Name: "requests", Version: "2.30.0"}); len(ms) != 0 {
		t.Fatalf("PyPI matched before it was imported: %v", ms)
	}
	if _, err := Import(ctx, dir, src, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Refresh(); err != nil {
		t.Fatal(err)
	}
	ms, err := s.Match(inventory.Package{Ecosystem: inventory.PyPI, Name: "requests", Version: "2.30.0"})
	if err != nil || len(ms) != 1 {
		t.Fatalf("after refresh: %v, %v", ms, err)
	}
	st, err := Status(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ecos []string
	for _, m := range st {
		ecos = append(ecos, m.Ecosystem)
		if m.ImportedAt.IsZero() || m.NewestModified.IsZero() || m.Bytes == 0 || m.Source == "" {
			t.Errorf("incomplete meta %+v", m)
		}
	}
	if strings.Join(ecos, ",") != "Go,PyPI,npm" {
		t.Errorf("status lists %v", ecos)
	}
}

func TestImportRejects(t *testing.T) {
	ctx := context.Background()
	empty := t.TempDir()
	if _, err := Import(ctx, t.TempDir(), empty, ImportOptions{}); err == nil || !strings.Contains(err.Error(), "no OSV advisories") {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := Import(ctx, t.TempDir(), filepath.Join(empty, "missing.zip"), ImportOptions{}); err == nil {
		t.Error("missing file: no error")
	}
	notZip := filepath.Join(empty, "broken.zip")
	os.WriteFile(notZip, []byte("this is not a zip"), 0o644)
	if _, err := Import(ctx, t.TempDir(), notZip, ImportOptions{}); err == nil {
		t.Error("broken zip: no error")
	}
	// Withdrawn and malformed records are skipped, not fatal.
	mixed := t.TempDir()
	os.WriteFile(filepath.Join(mixed, "bad.json"), []byte("{not json"), 0o644)
	os.WriteFile(filepath.Join(mixed, "withdrawn.json"), []byte(`{"id":"GHSA-xxxx","modified":"2024-01-01T00:00:00Z","withdrawn":"2024-02-01T00:00:00Z","affected":[{"package":{"ecosystem":"npm","name":"x"},"ranges":[{"type":"SEMVER","events":[{"introduced":"0"}]}]}]}`), 0o644)
	raw, _ := os.ReadFile("testdata/osv/npm/GHSA-jf85-cpcp-j695.json")
	os.WriteFile(filepath.Join(mixed, "good.json"), raw, 0o644)
	res, err := Import(ctx, t.TempDir(), mixed, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Read != 3 || res.Skipped != 2 || len(res.Stored) != 1 {
		t.Errorf("mixed import: %+v", res)
	}
}

func TestOpenCorrupt(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "npm"+fileSuffix), []byte("AISBXOSV garbage that is long enough"), 0o644)
	if _, err := Open(dir); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Open on a damaged file: %v, want ErrCorrupt", err)
	}
	s, err := Open(filepath.Join(dir, "absent"))
	if err != nil || len(s.Loaded()) != 0 {
		t.Errorf("Open on a missing dir: %v, %v", s.Loaded(), err)
	}
}

func TestDefaultDir(t *testing.T) {
	env := map[string]string{"HOME": "/home/u"}
	get := func(k string) string { return env[k] }
	if d, _ := DefaultDir(get); d != "/home/u/.cache/aisbx/vulndb" {
		t.Errorf("HOME: %s", d)
	}
	env[DirEnv] = "/elsewhere"
	if d, _ := DefaultDir(get); d != "/elsewhere" {
		t.Errorf("%s: %s", DirEnv, d)
	}
}
