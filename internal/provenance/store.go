package provenance

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"time"
)

// StoreDir is where a workspace's provenance lives, relative to its root.
const StoreDir = ".aisbx/provenance"

const (
	storeFile = "edits.jsonl"
	lockFile  = "lock"
)

// StoreOptions bound a Store. Zero fields take the defaults.
type StoreOptions struct {
	MaxEdits int           // edits kept, newest first; default 10,000
	MaxAge   time.Duration // older edits are dropped; default 30 days
	// MaxBytes is the size past which the file is rewritten without its
	// superseded and dropped records; default 8 MiB.
	MaxBytes int64
	Now      func() time.Time
}

func (o StoreOptions) withDefaults() StoreOptions {
	if o.MaxEdits <= 0 {
		o.MaxEdits = 10000
	}
	if o.MaxAge <= 0 {
		o.MaxAge = 30 * 24 * time.Hour
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 8 << 20
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Store keeps a workspace's Edits in <root>/.aisbx/provenance/edits.jsonl:
// an append-only log of Edit records, the last record of an ID winning,
// rewritten atomically when it outgrows its bounds. One process (the
// daemon) owns a workspace's Store; a file lock keeps a second writer, such
// as a standalone CLI, from interleaving with it. Safe for concurrent use.
type Store struct {
	dir  string
	opts StoreOptions

	mu      sync.Mutex
	edits   []*Edit // by Time, oldest first
	byID    map[string]*Edit
	byFile  map[string][]*Edit // by Time, oldest first
	records int                // records in the file, superseded ones included
	size    int64              // bytes in the file
	dirty   bool               // ranges mapped in memory, not yet on disk
	skipped int                // malformed records found on open
}

// OpenStore opens (creating when needed) the Store of the workspace at root.
func OpenStore(root string, opts StoreOptions) (*Store, error) {
	s := &Store{dir: filepath.Join(root, filepath.FromSlash(StoreDir)), opts: opts.withDefaults(), byID: map[string]*Edit{}, byFile: map[string][]*Edit{}}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("provenance store: %w", err)
	}
	if err := s.load(); err != nil {
		return nil, err
	}
	if s.prune() || s.skipped > 0 {
		if err := s.compact(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *Store) load() error {
	f, err := os.Open(filepath.Join(s.dir, storeFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("provenance store: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 8<<20)
	for sc.Scan() {
		line := sc.Bytes()
		s.size += int64(len(line)) + 1
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		s.records++
		var e Edit
		if err := json.Unmarshal(line, &e); err != nil || e.ID == "" {
			s.skipped++
			continue
		}
		s.put(&e)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("provenance store: reading %s: %w", storeFile, err)
	}
	return nil
}

// put inserts or replaces an edit in memory, keeping time order.
func (s *Store) put(e *Edit) {
	if old, ok := s.byID[e.ID]; ok {
		*old = *e
		return
	}
	s.byID[e.ID] = e
	s.edits = insertByTime(s.edits, e)
	s.byFile[e.File] = insertByTime(s.byFile[e.File], e)
}

func insertByTime(es []*Edit, e *Edit) []*Edit {
	i := sort.Search(len(es), func(i int) bool { return es[i].Time.After(e.Time) })
	es = append(es, nil)
	copy(es[i+1:], es[i:])
	es[i] = e
	return es
}

// prune drops edits past the age and count bounds; true when it dropped any.
func (s *Store) prune() bool {
	cut := 0
	oldest := s.opts.Now().Add(-s.opts.MaxAge)
	for cut < len(s.edits) && (s.edits[cut].Time.Before(oldest) || len(s.edits)-cut > s.opts.MaxEdits) {
		e := s.edits[cut]
		delete(s.byID, e.ID)
		fe := s.byFile[e.File]
		for i, x := range fe {
			if x == e {
				fe = append(fe[:i:i], fe[i+1:]...)
				break
			}
		}
		if len(fe) == 0 {
			delete(s.byFile, e.File)
		} else {
			s.byFile[e.File] = fe
		}
		cut++
	}
	if cut == 0 {
		return false
	}
	s.edits = append([]*Edit(nil), s.edits[cut:]...)
	return true
}

// Add records an edit and returns it as stored (with an ID assigned when it
// had none). It is on disk when Add returns.
func (s *Store) Add(e Edit) (Edit, error) {
	if e.File == "" {
		return Edit{}, errors.New("provenance: edit without a file")
	}
	if e.ID == "" {
		e.ID = newID()
	}
	if e.Time.IsZero() {
		e.Time = s.opts.Now()
	}
	e.Ranges = normalize(append([]Range(nil), e.Ranges...))
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.appendRecord(&e); err != nil {
		return Edit{}, err
	}
	stored := e
	s.put(&stored)
	if s.prune() || s.size > s.opts.MaxBytes || s.records > 2*len(s.edits)+100 {
		if err := s.compact(); err != nil {
			return e, err
		}
	}
	return e, nil
}

// MarkReviewed flags an edit as reviewed by a person, so no marker asks for
// it any more.
func (s *Store) MarkReviewed(id string) (Edit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		return Edit{}, fmt.Errorf("provenance: no edit %q", id)
	}
	updated := *e
	updated.Reviewed = true
	if err := s.appendRecord(&updated); err != nil {
		return Edit{}, err
	}
	*e = updated
	return updated, nil
}

// Get returns one edit by ID.
func (s *Store) Get(id string) (Edit, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		return Edit{}, false
	}
	return clone(e), true
}

// ByFile returns the edits of one file (absolute path), oldest first.
func (s *Store) ByFile(file string) []Edit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return clones(s.byFile[file])
}

// Since returns the edits made at or after t, oldest first.
func (s *Store) Since(t time.Time) []Edit {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := sort.Search(len(s.edits), func(i int) bool { return !s.edits[i].Time.Before(t) })
	return clones(s.edits[i:])
}

// Recent returns the n newest edits, newest first.
func (s *Store) Recent(n int) []Edit {
	s.mu.Lock()
	defer s.mu.Unlock()
	n = min(max(n, 0), len(s.edits))
	out := make([]Edit, 0, n)
	for i := len(s.edits) - 1; i >= len(s.edits)-n; i-- {
		out = append(out, clone(s.edits[i]))
	}
	return out
}

// MapRanges carries the ranges of file's working-copy edits through a later
// change to the file, and returns how many edits it changed. Committed
// records are left alone: their ranges name lines at a commit. The change
// reaches disk on Flush (or a later Add, or Close), not at once: editors
// send many changes per second.
func (s *Store) MapRanges(file string, c LineChange) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, e := range s.byFile[file] {
		if e.Commit != "" || len(e.Ranges) == 0 {
			continue
		}
		mapped := MapRanges(e.Ranges, c)
		if !equalRanges(mapped, e.Ranges) {
			e.Ranges = mapped
			n++
		}
	}
	if n > 0 {
		s.dirty = true
	}
	return n
}

// Flush writes ranges mapped since the last write to disk.
func (s *Store) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.dirty {
		return nil
	}
	return s.compact()
}

// Close flushes the Store.
func (s *Store) Close() error { return s.Flush() }

// Skipped is the number of malformed records found when the Store was
// opened (and dropped when it was rewritten).
func (s *Store) Skipped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.skipped
}

func (s *Store) appendRecord(e *Edit) error {
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("provenance: encoding edit: %w", err)
	}
	line = append(line, '\n')
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	f, err := os.OpenFile(filepath.Join(s.dir, storeFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("provenance store: %w", err)
	}
	_, err = f.Write(line)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("provenance store: appending: %w", err)
	}
	s.records++
	s.size += int64(len(line))
	return nil
}

// compact rewrites the file with the live edits only: to a temporary file,
// synced, then renamed over the old one, so a crash leaves one or the other.
func (s *Store) compact() error {
	var buf bytes.Buffer
	for _, e := range s.edits {
		line, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("provenance: encoding edit: %w", err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	tmp, err := os.CreateTemp(s.dir, storeFile+".*.tmp")
	if err != nil {
		return fmt.Errorf("provenance store: %w", err)
	}
	_, err = tmp.Write(buf.Bytes())
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(s.dir, storeFile))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("provenance store: rewriting: %w", err)
	}
	if d, err := os.Open(s.dir); err == nil { // make the rename durable
		d.Sync()
		d.Close()
	}
	s.records, s.size, s.dirty, s.skipped = len(s.edits), int64(buf.Len()), false, 0
	return nil
}

// lock takes the store's file lock, shared with other processes.
func (s *Store) lock() (func(), error) {
	f, err := os.OpenFile(filepath.Join(s.dir, lockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("provenance store lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("provenance store lock: %w", err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

func newID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Sprintf("t%x", time.Now().UnixNano())
	}
	return hex.EncodeToString(b[:])
}

func clone(e *Edit) Edit {
	c := *e
	c.Ranges = append([]Range(nil), e.Ranges...)
	return c
}

func clones(es []*Edit) []Edit {
	out := make([]Edit, len(es))
	for i, e := range es {
		out[i] = clone(e)
	}
	return out
}

func equalRanges(a, b []Range) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
