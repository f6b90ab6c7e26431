package documents

import (
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/aisbx/aisbx/internal/textpos"
)

// Document is an open file's current text.
type Document struct {
	Path       string
	LanguageID string
	Version    int32
	Text       []byte
	// Dirty reports whether the text has changed since it was opened or last
	// saved, as far as the store knows.
	Dirty bool
}

// Range is a span in line / UTF-16 column coordinates, 0-based.
type Range struct {
	Start, End textpos.Position
}

// Change is one content change: Range nil replaces the whole text.
type Change struct {
	Range *Range
	Text  string
}

// ErrUnknownDocument is returned for edits to documents that are not open.
var ErrUnknownDocument = errors.New("document is not open")

// Store is a set of open documents, safe for concurrent use.
type Store struct {
	mu   sync.RWMutex
	docs map[string]*Document
}

// NewStore returns an empty Store.
func NewStore() *Store { return &Store{docs: map[string]*Document{}} }

// Open records a newly opened document, replacing any previous state.
func (s *Store) Open(path, languageID string, version int32, text []byte) {
	s.mu.Lock()
	s.docs[path] = &Document{Path: path, LanguageID: languageID, Version: version, Text: text}
	s.mu.Unlock()
}

// Close forgets a document. It reports whether it was open.
func (s *Store) Close(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.docs[path]
	delete(s.docs, path)
	return ok
}

// Saved marks a document clean; text, when non-nil, replaces its content
// (the client sent it with didSave).
func (s *Store) Saved(path string, text []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.docs[path]
	if !ok {
		return false
	}
	if text != nil {
		d.Text = text
	}
	d.Dirty = false
	return true
}

// Get returns a copy of an open document. The Text slice is shared but
// never modified in place: edits build a new slice.
func (s *Store) Get(path string) (Document, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, ok := s.docs[path]
	if !ok {
		return Document{}, false
	}
	return *d, true
}

// All returns copies of every open document, sorted by path.
func (s *Store) All() []Document {
	s.mu.RLock()
	out := make([]Document, 0, len(s.docs))
	for _, d := range s.docs {
		out = append(out, *d)
	}
	s.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Change applies changes in order and sets the version. Either every change
// applies or none does: an out-of-range edit leaves the document as it was
// and returns an error that says which change failed.
func (s *Store) Change(path string, version int32, changes []Change) (Document, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.docs[path]
	if !ok {
		return Document{}, fmt.Errorf("%s: %w", path, ErrUnknownDocument)
	}
	text := d.Text
	for i, c := range changes {
		next, err := apply(text, c)
		if err != nil {
			return *d, fmt.Errorf("%s: change %d of %d (version %d): %w", path, i+1, len(changes), version, err)
		}
		text = next
	}
	d.Text = text
	d.Version = version
	d.Dirty = true
	return *d, nil
}

// apply returns a new slice; text is never modified in place, so readers
// holding the old slice stay consistent.
func apply(text []byte, c Change) ([]byte, error) {
	if c.Range == nil {
		return []byte(c.Text), nil
	}
	idx := textpos.NewIndex(text)
	start, ok1 := idx.OffsetUTF16(c.Range.Start)
	end, ok2 := idx.OffsetUTF16(c.Range.End)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("range %d:%d-%d:%d is outside the document (%d lines)",
			c.Range.Start.Line, c.Range.Start.Col, c.Range.End.Line, c.Range.End.Col, idx.LineCount())
	}
	if end < start {
		return nil, fmt.Errorf("range end %d:%d is before its start %d:%d",
			c.Range.End.Line, c.Range.End.Col, c.Range.Start.Line, c.Range.Start.Col)
	}
	out := make([]byte, 0, len(text)-(end-start)+len(c.Text))
	out = append(out, text[:start]...)
	out = append(out, c.Text...)
	return append(out, text[end:]...), nil
}
