package vulndb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DefaultBaseURL is where OSV publishes its per-ecosystem exports:
// <base>/<ecosystem>/all.zip.
const DefaultBaseURL = "https://osv-vulnerabilities.storage.googleapis.com"

// BaseURLEnv overrides DefaultBaseURL (a mirror, or a test server).
const BaseURLEnv = "AISBX_OSV_URL"

// ErrUnreachable says the download site could not be reached at all: no
// route, no name resolution, refused, or timed out. The local store is
// left as it was.
var ErrUnreachable = errors.New("the OSV download site cannot be reached")

// UpdateOptions tunes Update. The zero value downloads every ecosystem
// from DefaultBaseURL.
type UpdateOptions struct {
	BaseURL    string
	Ecosystems []string
	Client     *http.Client
	// Log receives one line per ecosystem; nil discards them.
	Log io.Writer
}

// UpdateResult is what happened to one ecosystem.
type UpdateResult struct {
	Ecosystem string
	Meta      Meta
	// NotModified is true when the server said the export did not change
	// since the last download.
	NotModified bool
}

// Update downloads OSV's exports and imports them into the store in dir.
// A download that fails leaves that ecosystem's store untouched. When the
// site cannot be reached at all the error wraps ErrUnreachable and says
// how to import a copy fetched elsewhere.
func Update(ctx context.Context, dir string, opts UpdateOptions) ([]UpdateResult, error) {
	base := strings.TrimRight(opts.BaseURL, "/")
	if base == "" {
		base = DefaultBaseURL
	}
	ecos := opts.Ecosystems
	if len(ecos) == 0 {
		ecos = Ecosystems
	}
	for _, e := range ecos {
		if _, ok := schemeFor(e); !ok {
			return nil, fmt.Errorf("vulndb: ecosystem %q is not one of %s", e, strings.Join(Ecosystems, ", "))
		}
	}
	client := opts.Client
	if client == nil {
		client = defaultClient()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("vulndb: creating %s: %w", dir, err)
	}
	var out []UpdateResult
	var errs []error
	for _, eco := range ecos {
		r, err := updateOne(ctx, dir, base, eco, client)
		if err != nil {
			if errors.Is(err, ErrUnreachable) {
				// The next ecosystem lives on the same site: stop here.
				return out, err
			}
			errs = append(errs, err)
			continue
		}
		if opts.Log != nil {
			if r.NotModified {
				fmt.Fprintf(opts.Log, "%s: unchanged since %s\n", eco, r.Meta.ImportedAt.Format(time.RFC3339))
			} else {
				fmt.Fprintf(opts.Log, "%s: %d advisories for %d packages\n", eco, r.Meta.Advisories, r.Meta.Packages)
			}
		}
		out = append(out, r)
	}
	return out, errors.Join(errs...)
}

func defaultClient() *http.Client {
	d := &net.Dialer{Timeout: 15 * time.Second}
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   15 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
	}}
}

func updateOne(ctx context.Context, dir, base, eco string, client *http.Client) (UpdateResult, error) {
	u := base + "/" + url.PathEscape(eco) + "/all.zip"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return UpdateResult{}, fmt.Errorf("vulndb: %w", err)
	}
	prev, prevErr := readMeta(filepath.Join(dir, eco+fileSuffix))
	if prevErr == nil && prev.Source == u {
		if prev.ETag != "" {
			req.Header.Set("If-None-Match", prev.ETag)
		} else if prev.LastModified != "" {
			req.Header.Set("If-Modified-Since", prev.LastModified)
		}
	}
	resp, err := client.Do(req)
	if err != nil {
		if unreachable(err) {
			return UpdateResult{}, fmt.Errorf("vulndb: %w (GET %s: %v).\n"+
				"The local database was left as it was. On a machine without network access, "+
				"download %s/%s/all.zip elsewhere and run: aisbxd vulndb import all.zip",
				ErrUnreachable, u, rootCause(err), base, eco)
		}
		return UpdateResult{}, fmt.Errorf("vulndb: update %s: %w", eco, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotModified:
		if prevErr == nil {
			return UpdateResult{Ecosystem: eco, Meta: prev, NotModified: true}, nil
		}
		return UpdateResult{}, fmt.Errorf("vulndb: update %s: server answered 304 but no store exists", eco)
	default:
		return UpdateResult{}, fmt.Errorf("vulndb: update %s: GET %s: %s", eco, u, resp.Status)
	}
	tmpDir, err := os.MkdirTemp(dir, ".download-")
	if err != nil {
		return UpdateResult{}, fmt.Errorf("vulndb: %w", err)
	}
	defer os.RemoveAll(tmpDir)
	zipPath := filepath.Join(tmpDir, eco, "all.zip")
	if err := os.MkdirAll(filepath.Dir(zipPath), 0o755); err != nil {
		return UpdateResult{}, fmt.Errorf("vulndb: %w", err)
	}
	f, err := os.Create(zipPath)
	if err != nil {
		return UpdateResult{}, fmt.Errorf("vulndb: %w", err)
	}
	_, err = io.Copy(f, resp.Body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if unreachable(err) {
			return UpdateResult{}, fmt.Errorf("vulndb: %w: the download of %s broke off (%v); the local database was left as it was", ErrUnreachable, u, rootCause(err))
		}
		return UpdateResult{}, fmt.Errorf("vulndb: update %s: downloading %s: %w", eco, u, err)
	}
	res, err := Import(ctx, dir, zipPath, ImportOptions{
		Ecosystems:   []string{eco},
		Source:       u,
		ETag:         resp.Header.Get("ETag"),
		LastModified: resp.Header.Get("Last-Modified"),
	})
	if err != nil {
		return UpdateResult{}, err
	}
	return UpdateResult{Ecosystem: eco, Meta: res.Stored[0]}, nil
}

// unreachable tells network failures (no route, no DNS, refused, reset,
// timeout) from other errors.
func unreachable(err error) bool {
	var dnsErr *net.DNSError
	var opErr *net.OpError
	var urlErr *url.Error
	switch {
	case errors.As(err, &dnsErr), errors.As(err, &opErr):
		return true
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, io.ErrUnexpectedEOF):
		return true
	case errors.As(err, &urlErr) && urlErr.Timeout():
		return true
	}
	return false
}

// rootCause strips url.Error's "Get <url>:" prefix, already in our message.
func rootCause(err error) error {
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return urlErr.Err
	}
	return err
}
