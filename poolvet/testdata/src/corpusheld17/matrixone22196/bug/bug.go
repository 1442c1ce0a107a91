// Package bug reproduces the shape of matrixorigin/matrixone#22196
// (https://github.com/matrixorigin/matrixone/pull/22196, "fifocache: fix
// potential double-free"). The file service's FIFO cache releases a cached
// value through its postEvict callback (the data cache gives the bytes back
// to their pool). Delete removed an item from the values map and called
// postEvict, but left the item in the eviction queue ("queues will be
// updated in evict"); when the queue later reached that item, deleteItem
// called postEvict on it again, releasing the same bytes a second time.
//
// Check: doubleput (an item released by Delete stays queued; eviction
// releases it again). The want is on deleteItem's postEvict call, where the
// second release happens; the first one is in Delete.
package bug

import (
	"context"
	"sync"
)

const maxBytesCap = 1 << 20

type Bytes struct {
	buf []byte
}

var bytesPool = sync.Pool{New: func() any { return &Bytes{buf: make([]byte, 0, 4096)} }}

func NewBytes(data []byte) *Bytes {
	b := bytesPool.Get().(*Bytes)
	b.buf = append(b.buf[:0], data...)
	return b
}

// Release gives the bytes back to the pool unless they grew too large.
func (b *Bytes) Release() {
	if cap(b.buf) > maxBytesCap {
		return
	}
	b.buf = b.buf[:0]
	bytesPool.Put(b)
}

type cacheItem struct {
	key   string
	value *Bytes
	size  int64
}

type Cache struct {
	mu        sync.Mutex
	values    map[string]*cacheItem
	queue     []*cacheItem
	used      int64
	capacity  int64
	postEvict func(ctx context.Context, key string, value *Bytes, size int64)
}

// NewDataCache builds the cache the file service uses: evicted values go
// back to the bytes pool.
func NewDataCache(capacity int64) *Cache {
	return &Cache{
		values:   make(map[string]*cacheItem),
		capacity: capacity,
		postEvict: func(ctx context.Context, key string, value *Bytes, size int64) {
			value.Release()
		},
	}
}

func (c *Cache) Set(ctx context.Context, key string, value *Bytes, size int64) {
	c.mu.Lock()
	if _, ok := c.values[key]; ok {
		c.mu.Unlock()
		return
	}
	item := &cacheItem{key: key, value: value, size: size}
	c.values[key] = item
	c.queue = append(c.queue, item)
	c.used += size
	c.mu.Unlock()
	c.Evict(ctx)
}

func (c *Cache) Delete(ctx context.Context, key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	item, ok := c.values[key]
	if !ok {
		return
	}
	delete(c.values, key)
	if c.postEvict != nil {
		c.postEvict(ctx, item.key, item.value, item.size)
	}
	// queue will be updated in evict
}

func (c *Cache) Evict(ctx context.Context) {
	for {
		c.mu.Lock()
		if c.used <= c.capacity || len(c.queue) == 0 {
			c.mu.Unlock()
			return
		}
		item := c.queue[0]
		c.queue[0] = nil
		c.queue = c.queue[1:]
		c.used -= item.size
		c.mu.Unlock()
		c.deleteItem(ctx, item)
	}
}

func (c *Cache) deleteItem(ctx context.Context, item *cacheItem) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.values, item.key)
	if c.postEvict != nil {
		c.postEvict(ctx, item.key, item.value, item.size) // want `doubleput`
	}
}
