package vulndb

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// Store is an opened vulnerability database. It is safe for concurrent
// use. Open it once and keep it: lookups read only the advisories asked
// for.
type Store struct {
	dir string

	mu      sync.RWMutex
	files   map[string]*ecoFile
	retired []*ecoFile

	cacheMu sync.Mutex
	cache   map[cacheKey]*Advisory
}

type cacheKey struct {
	eco string
	off uint64
}

// maxCached bounds the decoded advisories kept in memory.
const maxCached = 8192

// ecoFile is one ecosystem's open store file.
type ecoFile struct {
	f       *os.File
	meta    Meta
	index   []byte // u32 count, offsets, entries
	count   int
	entries []byte
	modTime time.Time
	size    int64
}

// ErrCorrupt reports a store file that is not what aisbx wrote.
var ErrCorrupt = errors.New("vulndb: store file is damaged; import the database again")

// Open opens the store in dir. Ecosystems without a file are simply not
// loaded; a missing dir is an empty store.
func Open(dir string) (*Store, error) {
	s := &Store{dir: dir, files: map[string]*ecoFile{}, cache: map[cacheKey]*Advisory{}}
	if err := s.Refresh(); err != nil {
		return nil, err
	}
	return s, nil
}

// Dir is where the store lives.
func (s *Store) Dir() string { return s.dir }

// Refresh reopens the ecosystem files that changed on disk since they were
// opened (an import or update ran meanwhile).
func (s *Store) Refresh() error {
	var errs []error
	for _, eco := range Ecosystems {
		p := filepath.Join(s.dir, eco+fileSuffix)
		fi, err := os.Stat(p)
		s.mu.RLock()
		cur := s.files[eco]
		s.mu.RUnlock()
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("vulndb: %w", err))
			}
			if cur != nil {
				s.swap(eco, nil)
			}
			continue
		}
		if cur != nil && cur.modTime.Equal(fi.ModTime()) && cur.size == fi.Size() {
			continue
		}
		ef, err := openEcoFile(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ef.modTime, ef.size = fi.ModTime(), fi.Size()
		s.swap(eco, ef)
	}
	return errors.Join(errs...)
}

func (s *Store) swap(eco string, ef *ecoFile) {
	s.mu.Lock()
	old := s.files[eco]
	if ef == nil {
		delete(s.files, eco)
	} else {
		s.files[eco] = ef
	}
	s.mu.Unlock()
	s.cacheMu.Lock()
	for k := range s.cache {
		if k.eco == eco {
			delete(s.cache, k)
		}
	}
	s.cacheMu.Unlock()
	if old != nil {
		// Lookups in flight may still read the old file: keep it open until
		// Close. Updates are rare, so few files pile up.
		s.mu.Lock()
		s.retired = append(s.retired, old)
		s.mu.Unlock()
	}
}

// Close releases the open files.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for eco, ef := range s.files {
		errs = append(errs, ef.f.Close())
		delete(s.files, eco)
	}
	for _, ef := range s.retired {
		errs = append(errs, ef.f.Close())
	}
	s.retired = nil
	return errors.Join(errs...)
}

// Loaded describes the ecosystems the store holds, sorted by name.
func (s *Store) Loaded() []Meta {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Meta, 0, len(s.files))
	for _, ef := range s.files {
		out = append(out, ef.meta)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Ecosystem < out[j].Ecosystem })
	return out
}

func openEcoFile(p string) (*ecoFile, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("vulndb: %w", err)
	}
	ef, err := readEcoFile(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w (%s: %v)", ErrCorrupt, p, err)
	}
	return ef, nil
}

func readEcoFile(f *os.File) (*ecoFile, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if size < int64(len(fileMagic)+footerSize) {
		return nil, errors.New("too short")
	}
	magic := make([]byte, len(fileMagic))
	if _, err := f.ReadAt(magic, 0); err != nil || string(magic) != fileMagic {
		return nil, errors.New("bad magic")
	}
	foot := make([]byte, footerSize)
	if _, err := f.ReadAt(foot, size-footerSize); err != nil {
		return nil, err
	}
	if string(foot[20:]) != footerMagic {
		return nil, errors.New("bad footer")
	}
	indexOff := binary.LittleEndian.Uint64(foot[0:])
	indexLen := binary.LittleEndian.Uint64(foot[8:])
	metaLen := uint64(binary.LittleEndian.Uint32(foot[16:]))
	if indexOff+indexLen+metaLen+footerSize != uint64(size) || indexLen < 4 {
		return nil, errors.New("inconsistent footer")
	}
	buf := make([]byte, indexLen+metaLen)
	if _, err := f.ReadAt(buf, int64(indexOff)); err != nil {
		return nil, err
	}
	ef := &ecoFile{f: f, index: buf[:indexLen]}
	if err := json.Unmarshal(buf[indexLen:], &ef.meta); err != nil {
		return nil, fmt.Errorf("meta: %w", err)
	}
	ef.count = int(binary.LittleEndian.Uint32(ef.index))
	if 4+4*uint64(ef.count) > indexLen {
		return nil, errors.New("index count out of range")
	}
	ef.entries = ef.index[4+4*ef.count:]
	return ef, nil
}

// entryAt returns the name and advisory spans of index entry i.
func (ef *ecoFile) entryAt(i int) (name []byte, rest []byte, ok bool) {
	off := binary.LittleEndian.Uint32(ef.index[4+4*i:])
	if uint64(off)+2 > uint64(len(ef.entries)) {
		return nil, nil, false
	}
	e := ef.entries[off:]
	n := int(binary.LittleEndian.Uint16(e))
	if 2+n+4 > len(e) {
		return nil, nil, false
	}
	return e[2 : 2+n], e[2+n:], true
}

// lookup binary-searches the index for name.
func (ef *ecoFile) lookup(name string) []span {
	key := []byte(name)
	i := sort.Search(ef.count, func(i int) bool {
		n, _, ok := ef.entryAt(i)
		return !ok || bytes.Compare(n, key) >= 0
	})
	if i >= ef.count {
		return nil
	}
	n, rest, ok := ef.entryAt(i)
	if !ok || !bytes.Equal(n, key) {
		return nil
	}
	cnt := int(binary.LittleEndian.Uint32(rest))
	rest = rest[4:]
	if cnt*12 > len(rest) {
		return nil
	}
	out := make([]span, cnt)
	for j := range out {
		out[j] = span{off: binary.LittleEndian.Uint64(rest[12*j:]), n: binary.LittleEndian.Uint32(rest[12*j+8:])}
	}
	return out
}

// Advisories returns the advisories that name a package of an ecosystem.
// name must be normalised as OSV spells it (PEP 503 for PyPI).
func (s *Store) Advisories(eco, name string) ([]*Advisory, error) {
	s.mu.RLock()
	ef := s.files[eco]
	s.mu.RUnlock()
	if ef == nil {
		return nil, nil
	}
	spans := ef.lookup(name)
	out := make([]*Advisory, 0, len(spans))
	for _, sp := range spans {
		k := cacheKey{eco, sp.off}
		s.cacheMu.Lock()
		adv := s.cache[k]
		s.cacheMu.Unlock()
		if adv == nil {
			raw := make([]byte, sp.n)
			if _, err := ef.f.ReadAt(raw, int64(sp.off)); err != nil {
				return nil, fmt.Errorf("vulndb: reading the %s store: %w", eco, err)
			}
			adv = new(Advisory)
			if err := json.Unmarshal(raw, adv); err != nil {
				return nil, fmt.Errorf("%w: advisory at %d: %v", ErrCorrupt, sp.off, err)
			}
			s.cacheMu.Lock()
			if len(s.cache) >= maxCached {
				clear(s.cache)
			}
			s.cache[k] = adv
			s.cacheMu.Unlock()
		}
		out = append(out, adv)
	}
	return out, nil
}
