package vulndb

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/aisbx/aisbx/internal/inventory"
)

// maxAdvisorySize bounds one advisory file; the largest OSV records (long
// explicit versions lists) are a few megabytes.
const maxAdvisorySize = 32 << 20

// ImportOptions narrows an import.
type ImportOptions struct {
	// Ecosystems limits which stores the import replaces. Empty means:
	// the ecosystem named by the zip's directory when it follows OSV's
	// "<ecosystem>/all.zip" layout, else every ecosystem found.
	Ecosystems []string
	// Source overrides the source recorded in Meta (a download URL).
	Source string
	// ETag and LastModified are recorded for conditional downloads.
	ETag, LastModified string
}

// ImportResult says what an import did.
type ImportResult struct {
	Stored  []Meta // one per ecosystem store written
	Read    int    // advisory files read
	Skipped int    // withdrawn, malformed, or for no wanted ecosystem
}

// Import loads OSV advisories from src into the store in dir, replacing
// the stores of the ecosystems it holds. src is an OSV export zip (one
// advisory per JSON file, as in OSV's <ecosystem>/all.zip), a single JSON
// advisory, or a directory holding either, searched recursively.
func Import(ctx context.Context, dir, src string, opts ImportOptions) (*ImportResult, error) {
	fi, err := os.Stat(src)
	if err != nil {
		return nil, fmt.Errorf("vulndb: import: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("vulndb: creating %s: %w", dir, err)
	}
	imp := &importer{dir: dir, writers: map[string]*fileWriter{}, res: &ImportResult{}}
	defer imp.abortAll()

	var walkErr error
	if fi.IsDir() {
		walkErr = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			switch {
			case d.IsDir():
				return nil
			case strings.HasSuffix(p, ".zip"):
				return imp.zip(ctx, p, wantedFor(opts.Ecosystems, p))
			case strings.HasSuffix(p, ".json"):
				return imp.file(p, wantedFor(opts.Ecosystems, ""))
			}
			return nil
		})
	} else if strings.HasSuffix(src, ".zip") {
		walkErr = imp.zip(ctx, src, wantedFor(opts.Ecosystems, src))
	} else {
		walkErr = imp.file(src, wantedFor(opts.Ecosystems, ""))
	}
	if walkErr != nil {
		return nil, fmt.Errorf("vulndb: import %s: %w", src, walkErr)
	}
	if len(imp.writers) == 0 {
		return nil, fmt.Errorf("vulndb: import %s: no OSV advisories for Go, PyPI or npm found", src)
	}
	source := opts.Source
	if source == "" {
		if abs, err := filepath.Abs(src); err == nil {
			source = abs
		} else {
			source = src
		}
	}
	now := time.Now().UTC().Truncate(time.Second)
	ecos := make([]string, 0, len(imp.writers))
	for eco := range imp.writers {
		ecos = append(ecos, eco)
	}
	sort.Strings(ecos)
	for _, eco := range ecos {
		fw := imp.writers[eco]
		delete(imp.writers, eco)
		meta := Meta{Source: source, ImportedAt: now, ETag: opts.ETag, LastModified: opts.LastModified}
		if err := fw.commit(meta); err != nil {
			return nil, err
		}
		meta, err := readMeta(fw.final)
		if err != nil {
			return nil, err
		}
		imp.res.Stored = append(imp.res.Stored, meta)
	}
	return imp.res, nil
}

// wantedFor decides which ecosystems an input may fill.
func wantedFor(explicit []string, zipPath string) map[string]bool {
	want := map[string]bool{}
	if len(explicit) > 0 {
		for _, e := range explicit {
			want[e] = true
		}
		return want
	}
	if zipPath != "" {
		parent := filepath.Base(filepath.Dir(zipPath))
		for _, e := range Ecosystems {
			if strings.EqualFold(parent, e) {
				want[e] = true
				return want
			}
		}
	}
	for _, e := range Ecosystems {
		want[e] = true
	}
	return want
}

type importer struct {
	dir     string
	writers map[string]*fileWriter
	res     *ImportResult
}

func (imp *importer) abortAll() {
	for _, fw := range imp.writers {
		fw.abort()
	}
}

func (imp *importer) zip(ctx context.Context, p string, want map[string]bool) error {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	defer zr.Close()
	for _, zf := range zr.File {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !strings.HasSuffix(zf.Name, ".json") || zf.FileInfo().IsDir() {
			continue
		}
		if zf.UncompressedSize64 > maxAdvisorySize {
			imp.res.Skipped++
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return fmt.Errorf("%s: %s: %w", p, zf.Name, err)
		}
		raw, err := io.ReadAll(io.LimitReader(rc, maxAdvisorySize+1))
		rc.Close()
		if err != nil {
			return fmt.Errorf("%s: %s: %w", p, zf.Name, err)
		}
		if err := imp.add(raw, want); err != nil {
			return err
		}
	}
	return nil
}

func (imp *importer) file(p string, want map[string]bool) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if fi.Size() > maxAdvisorySize {
		imp.res.Skipped++
		return nil
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	return imp.add(raw, want)
}

// add stores one advisory in the store of each wanted ecosystem it names.
// A file that is not an OSV advisory is counted as skipped: exports carry
// no other JSON, and one bad record should not sink an import.
func (imp *importer) add(raw []byte, want map[string]bool) error {
	imp.res.Read++
	if len(raw) > maxAdvisorySize {
		imp.res.Skipped++
		return nil
	}
	var adv Advisory
	if err := json.Unmarshal(raw, &adv); err != nil || adv.ID == "" {
		imp.res.Skipped++
		return nil
	}
	if adv.Withdrawn != nil {
		imp.res.Skipped++
		return nil
	}
	names := map[string][]string{}
	for _, a := range adv.Affected {
		eco := ecosystemBase(a.Package.Ecosystem)
		if !want[eco] || a.Package.Name == "" {
			continue
		}
		if _, ok := schemeFor(eco); !ok {
			continue
		}
		names[eco] = append(names[eco], inventory.NormalizeName(inventory.Ecosystem(eco), a.Package.Name))
	}
	if len(names) == 0 {
		imp.res.Skipped++
		return nil
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		imp.res.Skipped++
		return nil
	}
	for eco, ns := range names {
		fw := imp.writers[eco]
		if fw == nil {
			var err error
			if fw, err = newFileWriter(imp.dir, eco); err != nil {
				return err
			}
			imp.writers[eco] = fw
		}
		slices.Sort(ns)
		if err := fw.add(&adv, compact.Bytes(), slices.Compact(ns)); err != nil {
			return err
		}
	}
	return nil
}

// readMeta reads a store file's Meta without keeping it open.
func readMeta(p string) (Meta, error) {
	ef, err := openEcoFile(p)
	if err != nil {
		return Meta{}, err
	}
	defer ef.f.Close()
	return ef.meta, nil
}

// Status describes the stores in dir, without opening them for lookups.
func Status(dir string) ([]Meta, error) {
	var out []Meta
	var errs []error
	for _, eco := range Ecosystems {
		m, err := readMeta(filepath.Join(dir, eco+fileSuffix))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, m)
	}
	return out, errors.Join(errs...)
}
