// Package bug reproduces the shape of cockroachdb/pebble#647
// (https://github.com/cockroachdb/pebble/pull/647, commit 9167221,
// "internal/cache: fix double-free of cache entries"): when Set replaced the
// value of a key already in the block cache it ran eviction before taking
// the reference it hands to the caller. Eviction could drop the cache's own
// reference to that very entry, which sent it back to the entry allocator;
// the caller's later Release then freed it a second time, and the entry was
// handed out twice.
//
// Check: doubleput (release is reference counted and puts the entry back
// when the count reaches zero; on the path where evict releases e, the
// handle's Release is the second put; want at the caller's Release. The
// acquire after evict touches an entry already put back on that path.)
package bug

import (
	"sync"
	"sync/atomic"
)

type Value struct {
	buf []byte
}

type entry struct {
	refs int32
	key  uint64
	size int64
	val  *Value
}

var entryPool = sync.Pool{New: func() any { return new(entry) }}

// newEntry returns an entry holding one reference, the cache's own.
func newEntry(key uint64, size int64) *entry {
	e := entryPool.Get().(*entry)
	e.refs = 1
	e.key = key
	e.size = size
	return e
}

func (e *entry) acquire() { atomic.AddInt32(&e.refs, 1) }

func (e *entry) release() {
	if atomic.AddInt32(&e.refs, -1) != 0 {
		return
	}
	*e = entry{}
	entryPool.Put(e)
}

type Handle struct {
	e *entry
}

func (h Handle) Get() []byte {
	if h.e == nil || h.e.val == nil {
		return nil
	}
	return h.e.val.buf
}

func (h Handle) Release() {
	if h.e != nil {
		h.e.release()
	}
}

type shard struct {
	mu     sync.Mutex
	blocks map[uint64]*entry
	cold   []*entry // eviction order
	size   int64
	target int64
}

// evict drops the cache's reference to the oldest entries until the shard
// fits its target size.
func (c *shard) evict() {
	for c.size > c.target && len(c.cold) > 0 {
		e := c.cold[0]
		c.cold = c.cold[1:]
		delete(c.blocks, e.key)
		c.size -= e.size
		e.release()
	}
}

func (c *shard) Set(key uint64, v *Value) Handle {
	c.mu.Lock()
	defer c.mu.Unlock()

	e := c.blocks[key]
	if e == nil {
		e = newEntry(key, int64(len(v.buf)))
		e.val = v
		c.blocks[key] = e
		c.cold = append(c.cold, e)
		c.size += e.size
	} else {
		// the key is cached already: replace its value
		delta := int64(len(v.buf)) - e.size
		e.val = v
		e.size = int64(len(v.buf))
		c.size += delta
		c.evict()
	}
	e.acquire()
	return Handle{e: e}
}

// Warm loads a block into the cache without keeping it.
func (c *shard) Warm(key uint64, v *Value) {
	c.Set(key, v).Release() // want `doubleput`
}
