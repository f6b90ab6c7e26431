package sandbox

import (
	"archive/tar"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/aisbx/aisbx/internal/testfs"
)

// TestSnapshot: what a snapshot of testdata/snapshot/ws holds, with and
// without an overlay and custom excludes.
func TestSnapshot(t *testing.T) {
	cases := []struct {
		name     string
		overlay  map[string][]byte
		exclude  []string
		files    []string
		excluded []string
	}{
		{
			name:     "defaults",
			files:    []string{".gitignore", "id_test.go", "main.go", "sub/util.go"},
			excluded: []string{".aws/credentials", ".env", ".env.local", "keys/id_ed25519", "keys/id_ed25519.pub", "keys/server.pem"},
		},
		{
			name:     "overlay adds and replaces, but never lets a secret in",
			overlay:  map[string][]byte{"new.go": []byte("package main\n"), "main.go": []byte("package changed\n"), ".env.prod": []byte("X=1")},
			files:    []string{".gitignore", "id_test.go", "main.go", "new.go", "sub/util.go"},
			excluded: []string{".aws/credentials", ".env", ".env.local", ".env.prod", "keys/id_ed25519", "keys/id_ed25519.pub", "keys/server.pem"},
		},
		{
			name:     "custom excludes replace the defaults",
			exclude:  []string{"sub/"},
			files:    []string{".aws/credentials", ".env", ".env.local", ".gitignore", "id_test.go", "keys/id_ed25519", "keys/id_ed25519.pub", "keys/server.pem", "main.go"},
			excluded: []string{"sub/util.go"},
		},
	}
	// The workspace is copied, and its gitignored file made here: git does
	// not keep a file that testdata's own .gitignore ignores, so a clean
	// checkout would test nothing about ignored files.
	ws := t.TempDir()
	testfs.CopyTree(t, "testdata/snapshot/ws", ws)
	if err := os.WriteFile(filepath.Join(ws, "ignored.log"), []byte("log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := TakeSnapshot(t.Context(), ws, tc.overlay, tc.exclude)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.Files, tc.files) {
				t.Errorf("files %q, want %q", s.Files, tc.files)
			}
			if !reflect.DeepEqual(s.Excluded, tc.excluded) {
				t.Errorf("excluded %q, want %q", s.Excluded, tc.excluded)
			}
			var buf bytes.Buffer
			if _, _, err := s.writeTar(&buf, "/work", nil); err != nil {
				t.Fatal(err)
			}
			got := readTar(t, buf.Bytes())
			for _, f := range tc.files {
				want, ok := tc.overlay[f]
				if !ok {
					want, _ = os.ReadFile(filepath.Join(ws, f))
				}
				if !bytes.Equal(got["work/"+f], want) {
					t.Errorf("tar entry %s = %q, want %q", f, got["work/"+f], want)
				}
			}
			for _, f := range append(tc.excluded, "ignored.log") {
				if _, ok := got["work/"+f]; ok {
					t.Errorf("excluded %s is in the tar", f)
				}
			}
		})
	}
}

// TestSnapshotHash: the hash depends on paths, contents and the exec bit,
// not on where the tree is or its mtimes.
func TestSnapshotHash(t *testing.T) {
	files := map[string]string{"a.go": "package a\n", "b/c.txt": "c"}
	hash := func(dir string, overlay map[string][]byte) string {
		s, err := TakeSnapshot(t.Context(), dir, overlay, nil)
		if err != nil {
			t.Fatal(err)
		}
		h, err := s.Hash()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	d1, d2 := writeTree(t, files), writeTree(t, files)
	h1 := hash(d1, nil)
	if h2 := hash(d2, nil); h1 != h2 {
		t.Errorf("same content, different hash: %s vs %s", h1, h2)
	}
	if h := hash(d1, map[string][]byte{"a.go": []byte("package a\n")}); h != h1 {
		t.Errorf("an overlay equal to the file changed the hash")
	}
	if h := hash(d1, map[string][]byte{"a.go": []byte("package b\n")}); h == h1 {
		t.Errorf("changed content, same hash")
	}
	if err := os.Chmod(filepath.Join(d2, "a.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	if h := hash(d2, nil); h == h1 {
		t.Errorf("the exec bit does not change the hash")
	}
	if _, err := TakeSnapshot(t.Context(), d1, map[string][]byte{"../escape": nil}, nil); err == nil {
		t.Errorf("an overlay path outside the workspace was accepted")
	}
}

func readTar(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	tr := tar.NewReader(bytes.NewReader(b))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			c, _ := io.ReadAll(tr)
			out[h.Name] = c
		}
	}
}

func BenchmarkSnapshotTar(b *testing.B) {
	// A workspace of 200 files, 2 MB: the size NOTES.md measured the exec
	// transport on.
	files := map[string]string{}
	for i := range 200 {
		files[filepath.Join("pkg", string(rune('a'+i%26)), "f"+string(rune('0'+i%10))+string(rune('a'+i/10))+".go")] = string(bytes.Repeat([]byte("x"), 10<<10))
	}
	dir := writeTree(b, files)
	b.ResetTimer()
	for b.Loop() {
		s, err := TakeSnapshot(b.Context(), dir, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := s.writeTar(io.Discard, "/work", nil); err != nil {
			b.Fatal(err)
		}
	}
}
