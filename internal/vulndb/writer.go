package vulndb

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// fileWriter builds one ecosystem's store file in a temporary file beside
// the final one, so that readers never see a half-written store.
type fileWriter struct {
	eco   string
	final string
	f     *os.File
	w     *bufio.Writer
	off   uint64
	byID  map[string]span
	mod   map[string]time.Time
	names map[string][]string // package name -> advisory ids
	meta  Meta
}

type span struct {
	off uint64
	n   uint32
}

func newFileWriter(dir, eco string) (*fileWriter, error) {
	f, err := os.CreateTemp(dir, "."+eco+fileSuffix+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("vulndb: creating the %s store: %w", eco, err)
	}
	fw := &fileWriter{
		eco:   eco,
		final: filepath.Join(dir, eco+fileSuffix),
		f:     f,
		w:     bufio.NewWriterSize(f, 1<<20),
		byID:  map[string]span{},
		mod:   map[string]time.Time{},
		names: map[string][]string{},
	}
	if _, err := fw.w.WriteString(fileMagic); err != nil {
		fw.abort()
		return nil, err
	}
	fw.off = uint64(len(fileMagic))
	return fw, nil
}

// add stores an advisory's JSON under the package names it affects in
// this ecosystem. A later copy of the same id replaces an older one.
func (fw *fileWriter) add(adv *Advisory, raw []byte, names []string) error {
	if prev, ok := fw.mod[adv.ID]; ok && prev.After(adv.Modified) {
		return nil
	}
	if _, err := fw.w.Write(raw); err != nil {
		return fmt.Errorf("vulndb: writing the %s store: %w", fw.eco, err)
	}
	if _, seen := fw.byID[adv.ID]; !seen {
		for _, n := range names { // names holds no repeats
			fw.names[n] = append(fw.names[n], adv.ID)
		}
	}
	fw.byID[adv.ID] = span{off: fw.off, n: uint32(len(raw))}
	fw.mod[adv.ID] = adv.Modified
	fw.off += uint64(len(raw))
	// The Go database leaves "modified" at the zero time; fall back to
	// "published" so the freshness shown still means something.
	for _, ts := range []time.Time{adv.Modified, adv.Published} {
		if ts.After(fw.meta.NewestModified) {
			fw.meta.NewestModified = ts
		}
	}
	return nil
}

// commit writes the index, meta and footer and moves the file into place.
func (fw *fileWriter) commit(meta Meta) error {
	names := make([]string, 0, len(fw.names))
	for n := range fw.names {
		if len(n) <= 0xffff { // the index stores name lengths in 16 bits
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var entries []byte
	offsets := make([]byte, 4+4*len(names))
	binary.LittleEndian.PutUint32(offsets, uint32(len(names)))
	for i, n := range names {
		binary.LittleEndian.PutUint32(offsets[4+4*i:], uint32(len(entries)))
		entries = binary.LittleEndian.AppendUint16(entries, uint16(len(n)))
		entries = append(entries, n...)
		ids := fw.names[n] // distinct: add records each id once per name
		entries = binary.LittleEndian.AppendUint32(entries, uint32(len(ids)))
		for _, id := range ids {
			sp := fw.byID[id]
			entries = binary.LittleEndian.AppendUint64(entries, sp.off)
			entries = binary.LittleEndian.AppendUint32(entries, sp.n)
		}
	}
	indexOff := fw.off
	indexLen := uint64(len(offsets) + len(entries))
	meta.Ecosystem = fw.eco
	meta.Advisories = len(fw.byID)
	meta.Packages = len(names)
	meta.NewestModified = fw.meta.NewestModified
	meta.Bytes = int64(indexOff + indexLen + footerSize)
	mj, err := json.Marshal(meta)
	if err != nil {
		fw.abort()
		return err
	}
	meta.Bytes += int64(len(mj))
	if mj, err = json.Marshal(meta); err != nil {
		fw.abort()
		return err
	}
	for _, b := range [][]byte{offsets, entries, mj, putFooter(indexOff, indexLen, uint32(len(mj)))} {
		if _, err := fw.w.Write(b); err != nil {
			fw.abort()
			return fmt.Errorf("vulndb: writing the %s store: %w", fw.eco, err)
		}
	}
	if err := fw.w.Flush(); err != nil {
		fw.abort()
		return fmt.Errorf("vulndb: writing the %s store: %w", fw.eco, err)
	}
	if err := fw.f.Sync(); err != nil {
		fw.abort()
		return fmt.Errorf("vulndb: syncing the %s store: %w", fw.eco, err)
	}
	if err := fw.f.Close(); err != nil {
		os.Remove(fw.f.Name())
		return fmt.Errorf("vulndb: closing the %s store: %w", fw.eco, err)
	}
	if err := os.Rename(fw.f.Name(), fw.final); err != nil {
		os.Remove(fw.f.Name())
		return fmt.Errorf("vulndb: installing the %s store: %w", fw.eco, err)
	}
	return nil
}

func (fw *fileWriter) abort() {
	fw.f.Close()
	os.Remove(fw.f.Name())
}
