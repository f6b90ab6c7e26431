package dangerous

import (
	"bytes"
	"container/list"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// DefaultTreeCacheEntries bounds the syntax trees kept for incremental
// reparsing when Options.TreeCacheEntries is zero.
const DefaultTreeCacheEntries = 64

// treeCache keeps the last syntax tree of recently checked files. In the
// editor a file is re-checked after every pause in typing; handing
// tree-sitter the previous tree and the edit lets it reparse only what
// changed. Entries are taken out while in use: a tree serves one run at a
// time.
type treeCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // front = most recent; values are *cachedTree
	byKey map[string]*list.Element
}

type cachedTree struct {
	key  string
	tree *sitter.Tree
	src  []byte // the text the tree was parsed from
}

func newTreeCache(max int) *treeCache {
	return &treeCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

// take removes and returns the cached tree for key, or nil.
func (c *treeCache) take(key string) *cachedTree {
	if c == nil || key == "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil
	}
	c.order.Remove(el)
	delete(c.byKey, key)
	return el.Value.(*cachedTree)
}

// put stores a copy of tree (the caller keeps and closes its own) and of
// src, evicting the least recently used trees.
func (c *treeCache) put(key string, tree *sitter.Tree, src []byte) {
	if c == nil || key == "" {
		return
	}
	ct := &cachedTree{key: key, tree: tree.Clone(), src: bytes.Clone(src)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok { // a concurrent run of the same file
		c.order.Remove(el)
		el.Value.(*cachedTree).tree.Close()
	}
	c.byKey[key] = c.order.PushFront(ct)
	for c.order.Len() > c.max {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.byKey, old.Value.(*cachedTree).key)
		old.Value.(*cachedTree).tree.Close()
	}
}

func (c *treeCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for el := c.order.Front(); el != nil; el = el.Next() {
		el.Value.(*cachedTree).tree.Close()
	}
	c.order.Init()
	c.byKey = map[string]*list.Element{}
}

// diffEdit describes the change from old to new as one edit: the span
// between their common prefix and common suffix.
func diffEdit(old, new []byte) sitter.InputEdit {
	n := min(len(old), len(new))
	p := 0
	for p < n && old[p] == new[p] {
		p++
	}
	s := 0
	for s < n-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	return sitter.InputEdit{
		StartByte:      uint(p),
		OldEndByte:     uint(len(old) - s),
		NewEndByte:     uint(len(new) - s),
		StartPosition:  pointAt(old, p),
		OldEndPosition: pointAt(old, len(old)-s),
		NewEndPosition: pointAt(new, len(new)-s),
	}
}

// pointAt gives tree-sitter's row and byte column of an offset.
func pointAt(text []byte, off int) sitter.Point {
	row := bytes.Count(text[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(text[:off], '\n') + 1)
	return sitter.Point{Row: uint(row), Column: uint(col)}
}
