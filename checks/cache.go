package checks

import (
	"container/list"
	"sync"
)

// resultCache is a small LRU of the raw findings of cacheable checks, keyed
// by path and content hash, so that re-checking an unchanged buffer (focus
// changes, saves without edits) costs a hash.
type resultCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // front = most recent; values are *cacheEntry
	byKey map[[32]byte]*list.Element
}

type cacheEntry struct {
	key      [32]byte
	findings []Finding
}

func newResultCache(max int) *resultCache {
	return &resultCache{max: max, order: list.New(), byKey: map[[32]byte]*list.Element{}}
}

func (c *resultCache) get(k [32]byte) ([]Finding, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	// Callers may append to the slice; hand out a copy.
	return append([]Finding{}, el.Value.(*cacheEntry).findings...), true
}

func (c *resultCache) put(k [32]byte, fs []Finding) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fs = append([]Finding{}, fs...)
	if el, ok := c.byKey[k]; ok {
		el.Value.(*cacheEntry).findings = fs
		c.order.MoveToFront(el)
		return
	}
	c.byKey[k] = c.order.PushFront(&cacheEntry{key: k, findings: fs})
	for c.order.Len() > c.max {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.byKey, old.Value.(*cacheEntry).key)
	}
}

func (c *resultCache) clear() {
	c.mu.Lock()
	c.order.Init()
	c.byKey = map[[32]byte]*list.Element{}
	c.mu.Unlock()
}
