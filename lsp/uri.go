package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// uriToPath converts a file:// URI to a clean absolute path. Other schemes
// (untitled:, git:) are errors: aisbx checks files, and a buffer without a
// file has no workspace. go.lsp.dev/uri's Filename panics on them.
func uriToPath(u protocol.DocumentURI) (string, error) {
	parsed, err := url.Parse(string(u))
	if err != nil {
		return "", fmt.Errorf("parsing URI %q: %w", u, err)
	}
	if parsed.Scheme != "file" {
		return "", fmt.Errorf("URI %q: scheme %q is not file", u, parsed.Scheme)
	}
	if parsed.Path == "" {
		return "", fmt.Errorf("URI %q has no path", u)
	}
	return filepath.Clean(filepath.FromSlash(parsed.Path)), nil
}

// pathToURI converts an absolute path to a file:// URI.
func pathToURI(path string) protocol.DocumentURI {
	return protocol.DocumentURI(uri.File(path))
}
