package sandbox

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/aisbx/aisbx/internal/ignore"
)

// DefaultExclude are gitignore-style patterns of files that never enter a
// sandbox unless Options.Exclude replaces them: secrets and VCS data.
var DefaultExclude = []string{
	".git/", ".hg/", ".svn/", ".aisbx/",
	".env", ".env.*", ".envrc",
	"*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore",
	"id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
	"credentials", "credentials.json", "*credentials*.json", ".netrc", ".npmrc", ".pypirc",
	".aws/", ".ssh/", ".gnupg/", ".docker/config.json", ".kube/config",
	"*.tfstate", "*.tfstate.*", "secrets.y*ml",
}

// Snapshot is what a run sees of a workspace: the files git would track
// (tracked plus untracked, not ignored), with unsaved editor buffers laid
// over them, minus excluded files. Contents are read when the snapshot is
// written, so taking one is cheap.
type Snapshot struct {
	Root string
	// Files are sorted slash-separated paths relative to Root.
	Files []string
	// Excluded are the paths left out by the exclude patterns.
	Excluded []string

	overlay map[string][]byte
}

// TakeSnapshot lists root's files, applies overlay (path relative to root
// -> content) and drops paths matching exclude (nil: DefaultExclude).
func TakeSnapshot(ctx context.Context, root string, overlay map[string][]byte, exclude []string) (*Snapshot, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("snapshot of %s: %w", root, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("snapshot of %s: %w", root, notDir(err))
	}
	files, err := ignore.Files(ctx, abs)
	if err != nil {
		return nil, fmt.Errorf("snapshot of %s: %w", root, err)
	}
	if exclude == nil {
		exclude = DefaultExclude
	}
	m := newExcluder(exclude)
	s := &Snapshot{Root: abs, overlay: map[string][]byte{}}
	seen := make(map[string]bool, len(files)+len(overlay))
	for _, f := range files {
		seen[f] = true
	}
	for p, content := range overlay {
		rel, err := cleanRel(p)
		if err != nil {
			return nil, fmt.Errorf("overlay: %w", err)
		}
		s.overlay[rel] = content
		if !seen[rel] {
			seen[rel] = true
			files = append(files, rel)
		}
	}
	for _, f := range files {
		if m.excluded(f) {
			s.Excluded = append(s.Excluded, f)
			continue
		}
		s.Files = append(s.Files, f)
	}
	sort.Strings(s.Files)
	sort.Strings(s.Excluded)
	return s, nil
}

func notDir(err error) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("not a directory")
}

// cleanRel checks that p is a relative path inside the workspace.
func cleanRel(p string) (string, error) {
	p = filepath.ToSlash(p)
	c := path.Clean(p)
	if p == "" || path.IsAbs(c) || c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%q is not a path inside the workspace", p)
	}
	return c, nil
}

// excluder matches gitignore-style patterns against every component and
// the whole path, without reading any .gitignore.
type excluder struct{ m *ignore.Matcher }

func newExcluder(patterns []string) excluder {
	// A root that does not exist has no .gitignore files to read.
	return excluder{m: ignore.NewMatcher(string(filepath.Separator)+"nonexistent-aisbx-exclude-root", patterns...)}
}

func (e excluder) excluded(rel string) bool { return e.m.Ignored(rel, false) }

// tarEntry is one extra file of a job, written after the snapshot.
type tarEntry struct {
	name    string // path in the container, without the leading /
	content []byte
	mode    int64
}

// writeTar streams the snapshot under dir (an absolute container path) and
// then extra, and returns the snapshot's content hash: SHA-256 over the
// sorted paths, their executable bit and their contents, so the same tree
// gives the same hash whatever its mtimes or where it sits.
func (s *Snapshot) writeTar(w io.Writer, dir string, extra []tarEntry) (string, int64, error) {
	tw := tar.NewWriter(w)
	h := sha256.New()
	prefix := strings.Trim(dir, "/") + "/"
	madeDirs := map[string]bool{}
	var total int64
	buf := make([]byte, 32<<10)
	for _, rel := range s.Files {
		if err := addParents(tw, prefix, rel, madeDirs); err != nil {
			return "", total, err
		}
		n, err := s.writeFile(tw, h, prefix, rel, buf)
		total += n
		if err != nil {
			return "", total, err
		}
	}
	for _, e := range extra {
		if err := addParents(tw, "", e.name, madeDirs); err != nil {
			return "", total, err
		}
		hdr := &tar.Header{Name: e.name, Mode: e.mode, Size: int64(len(e.content)), Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0)}
		if err := tw.WriteHeader(hdr); err != nil {
			return "", total, err
		}
		if _, err := tw.Write(e.content); err != nil {
			return "", total, err
		}
	}
	if err := tw.Close(); err != nil {
		return "", total, err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), total, nil
}

// addParents writes directory entries so that a tar that does not create
// missing parents (busybox) still works; the work dir itself exists.
func addParents(tw *tar.Writer, prefix, rel string, made map[string]bool) error {
	dir := path.Dir(rel)
	if dir == "." || made[prefix+dir] {
		return nil
	}
	if err := addParents(tw, prefix, dir, made); err != nil {
		return err
	}
	made[prefix+dir] = true
	return tw.WriteHeader(&tar.Header{Name: prefix + dir + "/", Mode: 0o755, Typeflag: tar.TypeDir, ModTime: time.Unix(0, 0)})
}

func (s *Snapshot) writeFile(tw *tar.Writer, h hash.Hash, prefix, rel string, buf []byte) (int64, error) {
	var mode int64 = 0o644
	if content, ok := s.overlay[rel]; ok {
		if fi, err := os.Stat(filepath.Join(s.Root, filepath.FromSlash(rel))); err == nil && fi.Mode()&0o111 != 0 {
			mode = 0o755
		}
		hashHeader(h, rel, mode, int64(len(content)))
		h.Write(content)
		hdr := &tar.Header{Name: prefix + rel, Mode: mode, Size: int64(len(content)), Typeflag: tar.TypeReg, ModTime: time.Now()}
		if err := tw.WriteHeader(hdr); err != nil {
			return 0, err
		}
		n, err := tw.Write(content)
		return int64(n), err
	}
	f, err := os.Open(filepath.Join(s.Root, filepath.FromSlash(rel)))
	if err != nil {
		if os.IsNotExist(err) {
			return 0, nil // deleted since the listing: it is simply not there
		}
		return 0, fmt.Errorf("snapshot: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0, nil
	}
	if fi.Mode()&0o111 != 0 {
		mode = 0o755
	}
	hashHeader(h, rel, mode, fi.Size())
	hdr := &tar.Header{Name: prefix + rel, Mode: mode, Size: fi.Size(), Typeflag: tar.TypeReg, ModTime: fi.ModTime()}
	if err := tw.WriteHeader(hdr); err != nil {
		return 0, err
	}
	// The size in the header is a promise: a file that grew is cut, one that
	// shrank fails the run rather than sending a corrupt tar.
	n, err := io.CopyBuffer(tw, io.TeeReader(io.LimitReader(f, fi.Size()), h), buf)
	if err == nil && n != fi.Size() {
		err = fmt.Errorf("snapshot: %s changed while being read", rel)
	}
	return n, err
}

func hashHeader(h hash.Hash, rel string, mode, size int64) {
	var b [8]byte
	h.Write([]byte(rel))
	h.Write([]byte{0, byte(mode >> 6 & 1)})
	binary.BigEndian.PutUint64(b[:], uint64(size))
	h.Write(b[:])
}

// Hash computes the snapshot's content hash without building a tar.
func (s *Snapshot) Hash() (string, error) {
	sum, _, err := s.writeTar(io.Discard, "/work", nil)
	return sum, err
}
