// Package bug reproduces the shape of IrineSistiana/mosdns commit 08c4d86
// (https://github.com/IrineSistiana/mosdns/commit/08c4d869765a7c10d20b59a851e827c2d38976e2,
// "cache: fixed data race in redis Store()"): RedisCache.Store packs the
// record into a buffer from the size-class pool and defers its Release, but
// the redis SET runs in a goroutine started by Store. Store returns at once,
// the deferred Release puts the buffer back, and the goroutine then sends
// data.Bytes() of a buffer that another request may already be filling.
//
// Check: useafterput (the goroutine reads the buffer after the deferred
// Release; report at the Set that uses data.Bytes()).
package bug

import (
	"context"
	"encoding/binary"
	"fmt"
	"log"
	"math/bits"
	"sync"
	"time"
)

// Allocator hands out byte buffers from power-of-two size classes, one
// sync.Pool per class.
type Allocator struct {
	maxPoolLen int
	buffers    []sync.Pool
}

// NewAllocator builds an allocator for buffers up to 1<<maxPoolBitsLen bytes.
func NewAllocator(maxPoolBitsLen int) *Allocator {
	alloc := &Allocator{
		maxPoolLen: 1 << maxPoolBitsLen,
		buffers:    make([]sync.Pool, maxPoolBitsLen+1),
	}
	for i := range alloc.buffers {
		bufSize := 1 << i
		alloc.buffers[i].New = func() interface{} {
			return newBuffer(alloc, make([]byte, bufSize))
		}
	}
	return alloc
}

var defaultBufPool = NewAllocator(16)

// GetBuf returns a *Buffer of the given length from the default allocator.
func GetBuf(size int) *Buffer {
	return defaultBufPool.Get(size)
}

// Get returns a buffer from the size class that fits size.
func (alloc *Allocator) Get(size int) *Buffer {
	if size <= 0 || size > alloc.maxPoolLen {
		panic(fmt.Sprintf("invalid slice size %d", size))
	}
	buf := alloc.buffers[shard(size)].Get().(*Buffer)
	buf.SetLen(size)
	return buf
}

// Release gives buf back to the size class it came from.
func (alloc *Allocator) Release(buf *Buffer) {
	c := buf.Cap()
	i := shard(c)
	if c == 0 || c > alloc.maxPoolLen || c != 1<<i {
		panic("unexpected cap size")
	}
	alloc.buffers[i].Put(buf)
}

func shard(size int) int {
	if size <= 1 {
		return 0
	}
	return bits.Len64(uint64(size - 1))
}

// Buffer is a pooled byte slice with a logical length.
type Buffer struct {
	a *Allocator
	l int
	b []byte
}

func newBuffer(a *Allocator, b []byte) *Buffer {
	return &Buffer{a: a, l: len(b), b: b}
}

// SetLen sets the logical length.
func (b *Buffer) SetLen(l int) {
	if l > len(b.b) {
		panic("buffer length overflowed")
	}
	b.l = l
}

// Bytes returns the first Len bytes of the buffer.
func (b *Buffer) Bytes() []byte { return b.b[:b.l] }

// Cap returns the capacity of the backing slice.
func (b *Buffer) Cap() int { return cap(b.b) }

// Release returns the buffer to its allocator.
func (b *Buffer) Release() { b.a.Release(b) }

// Client is the part of the redis client the cache uses.
type Client interface {
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// RedisCache stores packed DNS responses in redis.
type RedisCache struct {
	Client        Client
	ClientTimeout time.Duration
	Logger        *log.Logger
}

// Store stores the value into redis asynchronously.
func (r *RedisCache) Store(key string, v []byte, storedTime, expirationTime time.Time) {
	ttl := time.Until(expirationTime)
	if ttl <= 0 {
		return
	}

	data := packRedisData(storedTime, expirationTime, v)
	defer data.Release()

	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), r.ClientTimeout)
		defer cancel()
		if err := r.Client.Set(ctx, key, data.Bytes(), ttl); err != nil { // want `useafterput`
			r.Logger.Printf("redis set: %v", err)
		}
	}()
}

// packRedisData packs storedTime, expirationTime and v into one pooled
// buffer. The caller must release it.
func packRedisData(storedTime, expirationTime time.Time, v []byte) *Buffer {
	buf := GetBuf(8 + 8 + len(v))
	b := buf.Bytes()
	binary.BigEndian.PutUint64(b[:8], uint64(storedTime.Unix()))
	binary.BigEndian.PutUint64(b[8:16], uint64(expirationTime.Unix()))
	copy(b[16:], v)
	return buf
}
