// Source: https://github.com/cockroachdb/pebble/commit/e2b7bb844759be90cdba907c169020b5583e83b3
// (https://github.com/cockroachdb/pebble/pull/1563, "db: clear range key
// count during Batch Reset", batch.go). Pebble is the storage engine under
// dragonboat's log DB.
//
// Bug: batches are recycled through batchPool / indexedBatchPool:
// Close -> release() calls b.Reset() and then puts the batch back. When range
// keys were added, Reset cleared count, countRangeDels, tombstones, ... but
// not countRangeKeys nor the cached fragmented rangeKeys. A batch taken from
// the pool by the next newBatch/newIndexedBatch therefore still claimed to
// hold range keys (DB.Apply then demands split/format-version support for
// range keys the new batch never wrote) and an indexed batch could serve the
// previous user's cached range key spans.
//
// Fix: Reset also zeroes countRangeKeys and drops the rangeKeys cache.
//
// Check: noreset (Batch.Reset, the reset used by release() before
// batchPool.Put, forgets countRangeKeys and rangeKeys)
package fixed

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"
)

const batchHeaderLen = 12

const batchMaxRetainedSize = 1 << 20

type Compare func(a, b []byte) int

type Span struct {
	Start, End []byte
}

// skiplist stands in for batchskl.Skiplist, an index over offsets into the
// batch data.
type skiplist struct {
	storage *[]byte
	cmp     Compare
	offsets []uint32
}

func (s *skiplist) Init(storage *[]byte, cmp Compare) {
	s.storage = storage
	s.cmp = cmp
	s.offsets = s.offsets[:0]
}

func (s *skiplist) Add(offset uint32) error {
	s.offsets = append(s.offsets, offset)
	return nil
}

func newSkiplist(storage *[]byte, cmp Compare) *skiplist {
	s := &skiplist{}
	s.Init(storage, cmp)
	return s
}

type DeferredBatchOp struct {
	index *skiplist
}

type flushableBatch struct{}

type DB struct {
	split     func([]byte) int
	rangeKeys bool
}

var errNoSplit = errors.New("pebble: split not configured")

// Batch is a sequence of Sets, Merges, Deletes, DeleteRanges, RangeKeySets,
// RangeKeyUnsets, and/or RangeKeyDeletes that are applied atomically.
type Batch struct {
	data []byte
	cmp  Compare

	memTableSize uint64

	db *DB

	count          uint64
	countRangeDels uint64
	// The count of range key sets, unsets and deletes in the batch. Updated
	// every time a RANGEKEYSET, RANGEKEYUNSET or RANGEKEYDEL key is added.
	countRangeKeys uint64

	deferredOp DeferredBatchOp

	index         *skiplist
	rangeDelIndex *skiplist
	rangeKeyIndex *skiplist

	tombstones []Span
	// Fragmented range key spans. Cached the first time a range key iterator is
	// requested. The cache is invalidated whenever a new range key
	// (RangeKey{Set,Unset,Del}) is added to the batch.
	rangeKeys []Span

	flushable *flushableBatch

	commit    sync.WaitGroup
	commitErr error
	applied   uint32 // updated atomically
}

var batchPool = sync.Pool{
	New: func() interface{} {
		return &Batch{}
	},
}

type indexedBatch struct {
	batch Batch
	index skiplist
}

var indexedBatchPool = sync.Pool{
	New: func() interface{} {
		return &indexedBatch{}
	},
}

func newBatch(db *DB) *Batch {
	b := batchPool.Get().(*Batch)
	b.db = db
	return b
}

func newIndexedBatch(db *DB, cmp Compare) *Batch {
	i := indexedBatchPool.Get().(*indexedBatch)
	i.batch.cmp = cmp
	i.batch.db = db
	i.batch.index = &i.index
	i.batch.index.Init(&i.batch.data, i.batch.cmp)
	return &i.batch
}

func (b *Batch) release() {
	if b.db == nil {
		// The batch was not created using newBatch or newIndexedBatch, or an error
		// was encountered. We don't try to reuse batches that encountered an error
		// because they might be stuck somewhere in the system and attempting to
		// reuse such batches is a recipe for onerous debugging sessions. Instead,
		// let the GC do its job.
		return
	}
	b.db = nil

	// NB: This is ugly (it would be cleaner if we could just assign a Batch{}),
	// but necessary so that we can use atomic.StoreUint32 for the Batch.applied
	// field. Without using an atomic to clear that field the Go race detector
	// complains.
	b.Reset()
	b.cmp = nil

	if b.index == nil {
		batchPool.Put(b)
	} else {
		b.index, b.rangeDelIndex, b.rangeKeyIndex = nil, nil, nil
		indexedBatchPool.Put((*indexedBatch)(unsafe.Pointer(b)))
	}
}

func (b *Batch) rangeKeySetDeferred(startLen, internalValueLen int) *DeferredBatchOp {
	b.data = append(b.data, make([]byte, startLen+internalValueLen)...)
	b.count++
	b.incrementRangeKeysCount()
	return &b.deferredOp
}

func (b *Batch) incrementRangeKeysCount() {
	b.countRangeKeys++
	if b.index != nil {
		b.rangeKeys = nil
		// Range keys are rare, so we lazily allocate the index for them.
		if b.rangeKeyIndex == nil {
			b.rangeKeyIndex = newSkiplist(&b.data, b.cmp)
		}
		b.deferredOp.index = b.rangeKeyIndex
	}
}

// rangeKeySpans returns the fragmented range keys, computing them the first
// time a range key iterator is requested.
func (b *Batch) rangeKeySpans() []Span {
	if b.rangeKeyIndex == nil {
		return nil
	}
	if b.rangeKeys == nil {
		for range b.rangeKeyIndex.offsets {
			b.rangeKeys = append(b.rangeKeys, Span{})
		}
	}
	return b.rangeKeys
}

// Apply the operations contained in the batch to the DB.
func (d *DB) Apply(batch *Batch) error {
	if atomic.LoadUint32(&batch.applied) != 0 {
		panic("pebble: batch already applied")
	}
	if batch.db != nil && batch.db != d {
		panic(fmt.Sprintf("pebble: batch db mismatch: %p != %p", batch.db, d))
	}
	if batch.countRangeKeys > 0 {
		if d.split == nil {
			return errNoSplit
		}
		if !d.rangeKeys {
			panic("pebble: range keys require the Experimental.RangeKeys option")
		}
	}
	atomic.StoreUint32(&batch.applied, 1)
	return nil
}

// Close closes the batch without committing it.
func (b *Batch) Close() error {
	b.release()
	return nil
}

// Reset resets the batch for reuse. The underlying byte slice (that is
// returned by Repr()) is not modified. It is only necessary to call this
// method if a batch is explicitly being reused. Close automatically takes are
// of releasing resources when appropriate for batches that are internally
// being reused.
func (b *Batch) Reset() {
	b.count = 0
	b.countRangeDels = 0
	b.countRangeKeys = 0
	b.memTableSize = 0
	b.deferredOp = DeferredBatchOp{}
	b.tombstones = nil
	b.rangeKeys = nil
	b.flushable = nil
	b.commit = sync.WaitGroup{}
	b.commitErr = nil
	atomic.StoreUint32(&b.applied, 0)
	if b.data != nil {
		if cap(b.data) > batchMaxRetainedSize {
			// If the capacity of the buffer is larger than our maximum
			// retention size, don't re-use it. Let it be GC-ed instead.
			// This prevents the memory from an unusually large batch from
			// being held on to indefinitely.
			b.data = nil
		} else {
			// Otherwise, reset the buffer for re-use.
			b.data = b.data[:batchHeaderLen]
		}
	}
	if b.index != nil {
		b.index.Init(&b.data, b.cmp)
		b.rangeDelIndex = nil
		b.rangeKeyIndex = nil
	}
}
