package records

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReproduce: a record read back says how to run the same thing again:
// same image digest, same snapshot hash, same command.
func TestReproduce(t *testing.T) {
	s := openStore(t, Options{})
	r := sampleRecord("failed", TriggerCodeAction)
	r.Profile = "go"
	r.Command = Command{Argv: []string{"go", "test", "-json", "-fullpath", "-run=^TestA$/^with space$", "./lint"}, Env: []string{"AISBX_WORKDIR=/work"}, Dir: "tools"}
	r.Snapshot = Snapshot{Hash: "sha256:" + strings.Repeat("ef", 32), Files: 42, Bytes: 12345}
	if err := s.Write(t.Context(), r); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get("last")
	if err != nil {
		t.Fatal(err)
	}
	rep := got.Reproduce()
	for _, want := range []string{
		r.Image.Digest, r.Snapshot.Hash, "42 files",
		"aisbxd run --dir /home/u/proj --profile go -- sh -c 'cd tools && exec go test -json -fullpath '",
		"docker run --rm --network none -w /work/tools -e AISBX_WORKDIR=/work " + r.Image.Digest + " go test -json -fullpath '-run=^TestA$/^with space$' ./lint",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("Reproduce() lacks %q:\n%s", want, rep)
		}
	}
}

// TestHashChanged hashes files on disk and unsaved buffers, marks deleted
// files, and refuses paths outside the workspace.
func TestHashChanged(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := HashChanged(root, []string{"a.go", "b.go", "gone.go"}, map[string][]byte{"b.go": []byte("package a\n")})
	if err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256([]byte("package a\n"))
	if len(got) != 3 || got[0].SHA256 != hex.EncodeToString(want[:]) || got[1].SHA256 != got[0].SHA256 || !got[2].Deleted || got[2].SHA256 != "" {
		t.Errorf("got %+v", got)
	}
	if _, err := HashChanged(root, []string{"../x"}, nil); err == nil {
		t.Error("a path outside the workspace was hashed")
	}
}
