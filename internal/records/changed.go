package records

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// HashChanged returns the changed files with the sha256 of their content
// as it is now; a file that no longer exists is marked deleted. overlay
// holds unsaved editor buffers by workspace-relative path: they are what
// ran, so they are what is hashed.
func HashChanged(root string, paths []string, overlay map[string][]byte) ([]ChangedFile, error) {
	out := make([]ChangedFile, 0, len(paths))
	for _, p := range paths {
		rel := filepath.ToSlash(filepath.Clean(p))
		if filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, fmt.Errorf("changed file %q is not inside the workspace", p)
		}
		if b, ok := overlay[rel]; ok {
			sum := sha256.Sum256(b)
			out = append(out, ChangedFile{Path: rel, SHA256: hex.EncodeToString(sum[:])})
			continue
		}
		sum, err := hashFile(filepath.Join(root, filepath.FromSlash(rel)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, ChangedFile{Path: rel, Deleted: true})
		case err != nil:
			return nil, err
		default:
			out = append(out, ChangedFile{Path: rel, SHA256: sum})
		}
	}
	return out, nil
}

func hashFile(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hashing %s: %w", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
