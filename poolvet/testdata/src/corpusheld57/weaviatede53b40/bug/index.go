// Source: https://github.com/weaviate/weaviate/commit/de53b4054f08e8b007e82d9007de475baf71fd73
// ("fixing the pool", part of https://github.com/weaviate/weaviate/pull/3724)
//
// Bug: the flat (brute-force) vector index's Delete took an 8-byte key
// buffer from its generic slicePool, deleted the id from the objects
// bucket, put the buffer back into the pool, and then - when compression
// was enabled - used the same IdSlice.slice again as the key for the
// compressed-objects bucket. By then another goroutine could have taken
// the buffer from the pool and overwritten it, so the wrong key was
// deleted (and the lsmkv memtable kept referencing pooled memory).
//
// Fix: Delete no longer uses the pool; it allocates the key with
// make([]byte, 8) and uses it for both buckets.
//
// Check: useafterput (the second bucket Delete reads IdSlice.slice after
// index.pool.byteSlicePool.Put(IdSlice) returned it to the pool)
package bug

import (
	"encoding/binary"
	"sync"
)

const defaultSize = 200

const (
	ObjectsBucketLSM           = "vectors"
	CompressedObjectsBucketLSM = "vectors_compressed"
	CompressionNone            = "none"
)

type pools struct {
	byteSlicePool    *slicePool[byte]
	uint64SlicePool  *slicePool[uint64]
	float32SlicePool *slicePool[float32]
}

func newPools() *pools {
	return &pools{
		byteSlicePool:    newSlicePool[byte](),
		uint64SlicePool:  newSlicePool[uint64](),
		float32SlicePool: newSlicePool[float32](),
	}
}

type slicePool[T any] struct {
	pool *sync.Pool
}

type SliceStruct[T any] struct {
	slice []T
}

func newSlicePool[T any]() *slicePool[T] {
	return &slicePool[T]{
		pool: &sync.Pool{
			New: func() interface{} {
				return &SliceStruct[T]{
					slice: make([]T, defaultSize),
				}
			},
		},
	}
}

func (p *slicePool[T]) Get(capacity int) *SliceStruct[T] {
	t := p.pool.Get().(*SliceStruct[T])
	if cap(t.slice) < capacity {
		t.slice = make([]T, capacity)
	}
	t.slice = t.slice[:capacity]
	return t
}

func (p *slicePool[T]) Put(t *SliceStruct[T]) {
	p.pool.Put(t)
}

// Bucket stands in for lsmkv.Bucket: a Delete records a tombstone for the
// key in the memtable.
type Bucket struct {
	mu         sync.Mutex
	tombstones map[string]struct{}
}

func (b *Bucket) Delete(key []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tombstones[string(key)] = struct{}{}
	return nil
}

type Store struct {
	buckets map[string]*Bucket
}

func (s *Store) Bucket(name string) *Bucket {
	return s.buckets[name]
}

type flat struct {
	id          string
	store       *Store
	pool        *pools
	compression string
}

func New(id string, store *Store, compression string) *flat {
	return &flat{
		id:          id,
		store:       store,
		pool:        newPools(),
		compression: compression,
	}
}

func (index *flat) Delete(ids ...uint64) error {
	for _, i := range ids {
		IdSlice := index.pool.byteSlicePool.Get(8)
		binary.BigEndian.PutUint64(IdSlice.slice, uint64(i))
		err := index.store.Bucket(ObjectsBucketLSM).Delete(IdSlice.slice)
		index.pool.byteSlicePool.Put(IdSlice)
		if err != nil {
			return err
		}
		if index.compression == CompressionNone {
			continue
		}
		err = index.store.Bucket(CompressedObjectsBucketLSM).Delete(IdSlice.slice) // want `useafterput`
		if err != nil {
			return err
		}
	}
	return nil
}
