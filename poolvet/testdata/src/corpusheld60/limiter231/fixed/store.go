// Source: https://github.com/ulule/limiter/pull/231
// (commit e45215c9a54819f4ed4a476b1a3c293107788595, "fix(store/memory): Fix
// random eviction from sync.Map using internal bytebuffer").
//
// Bug: the in-memory store built every cache key in a pooled
// internal/bytebuffer.ByteBuffer ("defer buffer.Close()" puts it back in a
// sync.Pool) and passed buffer.String() to the cache. String() is an unsafe
// zero-copy conversion of the pooled blob, and Cache.Increment stores that
// string as a key in a sync.Map. Once the buffer went back to the pool and was
// reused for the next request's key, the stored map key changed under the
// map, so counters were "randomly evicted" / reset.
// Fix: build the key with a strings.Builder (getCacheKey) so the stored key
// owns its memory; the pooled bytebuffer is no longer used here.
//
// Check: useafterput (fixed twin: keys come from getCacheKey, a
// strings.Builder, so nothing pooled is stored in the sync.Map)
package fixed

import (
	"context"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// ---- internal/bytebuffer ----

// ByteBuffer is a wrapper around a slice to reduce memory allocation while handling blob of data.
type ByteBuffer struct {
	blob []byte
}

// NewByteBuffer creates a new ByteBuffer instance.
func NewByteBuffer() *ByteBuffer {
	entry := bufferPool.Get().(*ByteBuffer)
	entry.blob = entry.blob[:0]
	return entry
}

// String returns the content buffer.
func (buffer *ByteBuffer) String() string {
	// Copied from strings.(*Builder).String
	return *(*string)(unsafe.Pointer(&buffer.blob)) // nolint: gosec
}

// Concat appends given arguments to blob content
func (buffer *ByteBuffer) Concat(args ...string) {
	for i := range args {
		buffer.blob = append(buffer.blob, args[i]...)
	}
}

// Close recycles underlying resources of encoder.
func (buffer *ByteBuffer) Close() {
	// See https://golang.org/issue/23199
	if buffer != nil && cap(buffer.blob) < (1<<16) {
		bufferPool.Put(buffer)
	}
}

// A byte buffer pool to reduce memory allocation pressure.
var bufferPool = &sync.Pool{
	New: func() interface{} {
		return &ByteBuffer{
			blob: make([]byte, 0, 1024),
		}
	},
}

// ---- drivers/store/memory/cache.go ----

// Counter is a simple counter with an expiration.
type Counter struct {
	mutex      sync.RWMutex
	value      int64
	expiration int64
}

// Increment increments given value on this counter.
func (counter *Counter) Increment(value int64, expiration int64) (int64, int64) {
	counter.mutex.Lock()
	defer counter.mutex.Unlock()

	if counter.expiration == 0 || time.Now().UnixNano() > counter.expiration {
		counter.value = value
		counter.expiration = expiration
		return counter.value, counter.expiration
	}

	counter.value += value
	return counter.value, counter.expiration
}

// Cache contains a collection of counters.
type Cache struct {
	counters sync.Map
}

// LoadOrStore returns the existing counter for the key if present.
// Otherwise, it stores and returns the given counter.
func (cache *Cache) LoadOrStore(key string, counter *Counter) (*Counter, bool) {
	val, loaded := cache.counters.LoadOrStore(key, counter)
	if val == nil {
		return counter, false
	}
	return val.(*Counter), loaded
}

// Load returns the counter stored in the map for a key.
func (cache *Cache) Load(key string) (*Counter, bool) {
	val, ok := cache.counters.Load(key)
	if val == nil || !ok {
		return nil, false
	}
	return val.(*Counter), true
}

// Increment increments given value on key.
// If key is undefined or expired, it will create it.
func (cache *Cache) Increment(key string, value int64, duration time.Duration) (int64, time.Time) {
	expiration := time.Now().Add(duration).UnixNano()

	counter, loaded := cache.Load(key)
	if loaded {
		value, expiration = counter.Increment(value, expiration)
		return value, time.Unix(0, expiration)
	}

	counter, loaded = cache.LoadOrStore(key, &Counter{
		value:      value,
		expiration: expiration,
	})
	if loaded {
		value, expiration = counter.Increment(value, expiration)
		return value, time.Unix(0, expiration)
	}

	return value, time.Unix(0, expiration)
}

// Reset changes the key's value and resets the expiration.
func (cache *Cache) Reset(key string, duration time.Duration) (int64, time.Time) {
	cache.counters.Delete(key)
	return 0, time.Now().Add(duration)
}

// ---- drivers/store/memory/store.go ----

// Rate is the limiter rate.
type Rate struct {
	Period time.Duration
	Limit  int64
}

// Context is the limit context.
type Context struct {
	Limit     int64
	Remaining int64
	Reset     int64
	Reached   bool
}

func getContextFromState(rate Rate, expiration time.Time, count int64) Context {
	remaining := int64(0)
	if count < rate.Limit {
		remaining = rate.Limit - count
	}
	return Context{Limit: rate.Limit, Remaining: remaining, Reset: expiration.Unix(), Reached: count > rate.Limit}
}

// Store is the in-memory store.
type Store struct {
	Prefix string
	cache  *Cache
}

// Get returns the limit for given identifier.
func (store *Store) Get(ctx context.Context, key string, rate Rate) (Context, error) {
	count, expiration := store.cache.Increment(store.getCacheKey(key), 1, rate.Period)

	return getContextFromState(rate, expiration, count), nil
}

// Increment increments the limit by given count & returns the new limit value for given identifier.
func (store *Store) Increment(ctx context.Context, key string, count int64, rate Rate) (Context, error) {
	newCount, expiration := store.cache.Increment(store.getCacheKey(key), count, rate.Period)

	return getContextFromState(rate, expiration, newCount), nil
}

// Reset returns the limit for given identifier.
func (store *Store) Reset(ctx context.Context, key string, rate Rate) (Context, error) {
	count, expiration := store.cache.Reset(store.getCacheKey(key), rate.Period)

	return getContextFromState(rate, expiration, count), nil
}

// getCacheKey returns the full path for an identifier.
func (store *Store) getCacheKey(key string) string {
	buffer := strings.Builder{}
	buffer.WriteString(store.Prefix)
	buffer.WriteString(":")
	buffer.WriteString(key)
	return buffer.String()
}
