package checks

import (
	"container/list"
	"sync"
)

// resultCache is a small LRU of engine results keyed by path and content
// hash, so that re-checking an unchanged buffer (focus changes, saves without
// edits) costs a hash.
type resultCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // front = most recent; values are *cacheEntry
	byKey map[[32]byte]*list.Element
}

type cacheEntry struct {
	key [32]byte
	res Result
}

func newResultCache(max int) *resultCache {
	return &resultCache{max: max, order: list.New(), byKey: map[[32]byte]*list.Element{}}
}

func (c *resultCache) get(k [32]byte) (Result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[k]
	if !ok {
		return Result{}, false
	}
	c.order.MoveToFront(el)
	r := el.Value.(*cacheEntry).res
	// Callers may append to the slice; hand out a copy.
	r.Findings = append([]Finding{}, r.Findings...)
	return r, true
}

func (c *resultCache) put(k [32]byte, r Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r.Findings = append([]Finding{}, r.Findings...)
	if el, ok := c.byKey[k]; ok {
		el.Value.(*cacheEntry).res = r
		c.order.MoveToFront(el)
		return
	}
	c.byKey[k] = c.order.PushFront(&cacheEntry{key: k, res: r})
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
