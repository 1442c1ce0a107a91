package fixed

import "sync"

// Cache is the FIFO cache whose queue1 holds the items in insertion order.
type Cache[K comparable, V any] struct {
	mu       sync.Mutex
	capacity int
	used     int
	values   map[K]*_CacheItem[K, V]
	queue1   *Queue[*_CacheItem[K, V]]
}

type _CacheItem[K comparable, V any] struct {
	key   K
	value V
	size  int
}

func New[K comparable, V any](capacity int) *Cache[K, V] {
	return &Cache[K, V]{
		capacity: capacity,
		values:   make(map[K]*_CacheItem[K, V]),
		queue1:   NewQueue[*_CacheItem[K, V]](),
	}
}

func (c *Cache[K, V]) Set(key K, value V, size int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	item := &_CacheItem[K, V]{key: key, value: value, size: size}
	c.values[key] = item
	c.queue1.enqueue(item)
	c.used += size
	c.evict()
}

func (c *Cache[K, V]) evict() {
	for c.used > c.capacity {
		item, ok := c.queue1.dequeue()
		if !ok {
			break
		}
		delete(c.values, item.key)
		c.used -= item.size
	}
}
