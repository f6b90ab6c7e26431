package records

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Options configure a Store.
type Options struct {
	// MaxRecords and MaxAge bound what is kept: after each write the
	// oldest records beyond MaxRecords, and those older than MaxAge, are
	// removed. Defaults: 200 records, 30 days. Negative disables a bound.
	MaxRecords int
	MaxAge     time.Duration
	// MaxOutput bounds the run's output excerpt and MaxTestOutput each
	// test's; defaults 32 KiB and 4 KiB.
	MaxOutput     int
	MaxTestOutput int
	// Redact removes secrets from text; it is applied to every free-text
	// field before a record is written. nil keeps text as is.
	Redact func([]byte) []byte
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// ErrNotFound is returned by Get for an id that names no record.
var ErrNotFound = errors.New("no such run record")

// Store keeps run records as one JSON file per run in a directory.
type Store struct {
	dir  string
	opts Options
}

// DefaultDir is where a workspace's records live: <root>/.aisbx/runs.
func DefaultDir(root string) string { return filepath.Join(root, ".aisbx", "runs") }

// Open returns a store over dir; the directory is created on first write.
func Open(dir string, opts Options) (*Store, error) {
	if dir == "" {
		return nil, errors.New("records: no directory given")
	}
	if opts.MaxRecords == 0 {
		opts.MaxRecords = 200
	}
	if opts.MaxAge == 0 {
		opts.MaxAge = 30 * 24 * time.Hour
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = 32 << 10
	}
	if opts.MaxTestOutput <= 0 {
		opts.MaxTestOutput = 4 << 10
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Store{dir: dir, opts: opts}, nil
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// idPattern is the form of record ids: UTC time to the millisecond, then
// random hex, so that names sort by time.
var idPattern = regexp.MustCompile(`^\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{6}$`)

const idTimeLayout = "20060102T150405.000Z"

// NewID returns a fresh record id for time t, e.g. 20261129T184800.123Z-3fa9c1.
func NewID(t time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return t.UTC().Format(idTimeLayout) + "-" + hex.EncodeToString(b[:])
}

// idTime returns the time an id encodes.
func idTime(id string) (time.Time, bool) {
	if !idPattern.MatchString(id) {
		return time.Time{}, false
	}
	t, err := time.Parse(idTimeLayout, id[:len(idTimeLayout)])
	return t, err == nil
}

// Write stores r: it fills in the id, version and time when unset, bounds
// the output excerpts, redacts free text, writes the file atomically (a
// temporary file renamed into place) and prunes old records. r itself is
// updated with the id, version and time only.
func (s *Store) Write(ctx context.Context, r *Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.opts.Now()
	if r.Time.IsZero() {
		r.Time = now.UTC()
	}
	if r.ID == "" {
		r.ID = NewID(r.Time)
	}
	if !idPattern.MatchString(r.ID) {
		return fmt.Errorf("records: bad id %q", r.ID)
	}
	r.Version = SchemaVersion
	out, err := s.prepare(r)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding run record %s: %w", r.ID, err)
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", s.dir, err)
	}
	if err := writeAtomic(s.dir, r.ID+".json", append(data, '\n')); err != nil {
		return err
	}
	if _, err := s.Prune(ctx); err != nil {
		return fmt.Errorf("record %s written, pruning failed: %w", r.ID, err)
	}
	return nil
}

// prepare returns the copy of r that is written: bounded and redacted.
func (s *Store) prepare(r *Record) (*Record, error) {
	c, err := deepCopy(r)
	if err != nil {
		return nil, err
	}
	if len(c.Output) > s.opts.MaxOutput {
		c.Output = bound(c.Output, s.opts.MaxOutput)
		c.OutputTruncated = true
	}
	for i := range c.Tests {
		c.Tests[i].Output = bound(c.Tests[i].Output, s.opts.MaxTestOutput)
	}
	if s.opts.Redact != nil {
		redactStrings(c, s.opts.Redact)
	}
	return c, nil
}

func deepCopy(r *Record) (*Record, error) {
	data, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("copying run record: %w", err)
	}
	var c Record
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("copying run record: %w", err)
	}
	return &c, nil
}

// bound keeps the head and the tail of s within n bytes.
func bound(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const marker = "\n[... %d bytes elided ...]\n"
	head, tail := n/2, n-n/2
	return s[:head] + fmt.Sprintf(marker, len(s)-n) + s[len(s)-tail:]
}

func writeAtomic(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, ".tmp-"+name+"-*")
	if err != nil {
		return fmt.Errorf("writing run record: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // gone after the rename; cleans up on failure
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("syncing %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", tmp, err)
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return fmt.Errorf("writing run record: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("writing run record: %w", err)
	}
	if d, err := os.Open(dir); err == nil { // make the rename durable
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// WriteAttachment stores a file that belongs to record id beside it, as
// <id>.<name> (an SBOM, say), atomically, and returns its path. It is
// removed when the record is pruned.
func (s *Store) WriteAttachment(id, name string, data []byte) (string, error) {
	if !idPattern.MatchString(id) || name == "" || strings.ContainsAny(name, "/\\") {
		return "", fmt.Errorf("attachment %q of record %q: bad name", name, id)
	}
	file := id + "." + name
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return "", fmt.Errorf("creating %s: %w", s.dir, err)
	}
	if err := writeAtomic(s.dir, file, data); err != nil {
		return "", err
	}
	return filepath.Join(s.dir, file), nil
}

// ids lists the record ids in the store, newest first. Files that are not
// records are ignored (and never removed).
func (s *Store) ids() ([]string, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", s.dir, err)
	}
	var ids []string
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if ok && e.Type().IsRegular() && idPattern.MatchString(id) {
			ids = append(ids, id)
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(ids)))
	return ids, nil
}

// Get reads a record by id, unique id prefix, or "last".
func (s *Store) Get(idOrPrefix string) (*Record, error) {
	ids, err := s.ids()
	if err != nil {
		return nil, err
	}
	q := strings.TrimSuffix(strings.TrimSpace(idOrPrefix), ".json")
	if q == "" {
		return nil, fmt.Errorf("%w: empty id", ErrNotFound)
	}
	if q == "last" || q == "latest" {
		if len(ids) == 0 {
			return nil, fmt.Errorf("%w: no runs recorded in %s", ErrNotFound, s.dir)
		}
		return s.read(ids[0])
	}
	var matches []string
	for _, id := range ids {
		if id == q {
			return s.read(id)
		}
		if strings.HasPrefix(id, q) {
			matches = append(matches, id)
		}
	}
	switch len(matches) {
	case 0:
		return nil, fmt.Errorf("%w: %q in %s", ErrNotFound, q, s.dir)
	case 1:
		return s.read(matches[0])
	}
	shown := matches
	if len(shown) > 5 {
		shown = shown[:5]
	}
	return nil, fmt.Errorf("%q matches %d runs (%s…): give more of the id", q, len(matches), strings.Join(shown, ", "))
}

func (s *Store) read(id string) (*Record, error) {
	data, err := os.ReadFile(filepath.Join(s.dir, id+".json"))
	if err != nil {
		return nil, fmt.Errorf("reading run record %s: %w", id, err)
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("run record %s is not valid JSON: %w", id, err)
	}
	if r.Version > SchemaVersion {
		return nil, fmt.Errorf("run record %s has schema version %d; this aisbxd reads up to %d", id, r.Version, SchemaVersion)
	}
	return &r, nil
}

// Filter narrows List.
type Filter struct {
	Status  string    // only runs with this status
	Trigger Trigger   // only runs started this way
	Since   time.Time // only runs at or after
	Limit   int       // at most this many; 0 means all
}

// List returns records newest first. Unreadable records are skipped and
// reported in the error, which does not stop the listing.
func (s *Store) List(f Filter) ([]*Record, error) {
	ids, err := s.ids()
	if err != nil {
		return nil, err
	}
	var out []*Record
	var errs []error
	for _, id := range ids {
		if f.Limit > 0 && len(out) >= f.Limit {
			break
		}
		if t, ok := idTime(id); ok && !f.Since.IsZero() && t.Before(f.Since.Add(-time.Second)) {
			break // ids are newest first: the rest are older still
		}
		r, err := s.read(id)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if (f.Status != "" && r.Status != f.Status) || (f.Trigger != "" && r.Trigger != f.Trigger) ||
			(!f.Since.IsZero() && r.Time.Before(f.Since)) {
			continue
		}
		out = append(out, r)
	}
	return out, errors.Join(errs...)
}

// Prune removes records beyond the count and age bounds and returns how
// many it removed.
func (s *Store) Prune(ctx context.Context) (int, error) {
	ids, err := s.ids()
	if err != nil {
		return 0, err
	}
	now := s.opts.Now()
	removed := 0
	var errs []error
	for i, id := range ids {
		if ctx.Err() != nil {
			return removed, ctx.Err()
		}
		t, _ := idTime(id)
		tooMany := s.opts.MaxRecords > 0 && i >= s.opts.MaxRecords
		tooOld := s.opts.MaxAge > 0 && now.Sub(t) > s.opts.MaxAge
		if !tooMany && !tooOld {
			continue
		}
		if err := os.Remove(filepath.Join(s.dir, id+".json")); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		// Attachments (the run's SBOM) go with their record.
		if matches, err := filepath.Glob(filepath.Join(s.dir, id+".*")); err == nil {
			for _, m := range matches {
				_ = os.Remove(m)
			}
		}
		removed++
	}
	return removed, errors.Join(errs...)
}
