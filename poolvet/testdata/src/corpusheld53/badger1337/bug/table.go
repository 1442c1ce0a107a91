// Source: https://github.com/dgraph-io/badger/pull/1337
// (commit 21735af853dab8942e187dddbeeb41f3ecb04071, "fix: Fix race condition
// in block.incRef", fixes https://github.com/dgraph-io/dgraph/issues/5456).
//
// Bug: decompressed table blocks take their []byte from blockPool
// (sync.Pool) and are reference counted; when the count drops to zero,
// decrRef puts &b.data back into blockPool. A block held only by the block
// cache has ref 1, and the cache's eviction handler calls decrRef. Table.block
// returned a block found in the cache without taking a reference first, and
// the iterator only incremented the count later in setBlock. If the block was
// evicted in between, its ref went 1 -> 0 and its data went back into the
// pool; the iterator then bumped the ref 0 -> 1 and read b.data while another
// decompression that got the same buffer from the pool overwrote it (crash /
// corrupt reads).
// Fix: incrRef refuses to resurrect a block whose ref is 0 (CAS loop), and
// Table.block only returns a cached block after a successful incrRef; a new
// block starts with ref 1 owned by the caller, and setBlock no longer
// increments.
//
// Check: useafterput (at the return of the cached block in Table.block: the
// block's data may already be back in blockPool when the caller uses it)
package bug

import (
	"errors"
	"sync"
	"sync/atomic"
)

var blockPool = &sync.Pool{
	New: func() interface{} {
		b := make([]byte, 0)
		return &b
	},
}

// Cache is the subset of the ristretto cache used by tables.
type Cache interface {
	Get(key interface{}) (interface{}, bool)
	Set(key, value interface{}, cost int64) bool
}

// BlockEvictHandler is used to reuse the byte slice stored in the block on cache eviction.
func BlockEvictHandler(value interface{}) {
	if b, ok := value.(*block); ok {
		b.decrRef()
	}
}

type block struct {
	offset            int
	data              []byte
	entriesIndexStart int
	isReusable        bool // used to determine if the blocked should be reused.
	ref               int32
}

func (b *block) incrRef() {
	atomic.AddInt32(&b.ref, 1)
}

func (b *block) decrRef() {
	if b == nil {
		return
	}

	p := atomic.AddInt32(&b.ref, -1)
	// Insert the []byte into pool only if the block is resuable. When a block
	// is reusable a new []byte is used for decompression and this []byte can
	// be reused.
	if p == 0 && b.isReusable {
		blockPool.Put(&b.data)
	}
}

func (b *block) size() int64 {
	return int64(3*8 + cap(b.data))
}

// Options are the table options used here.
type Options struct {
	Cache      Cache
	Compressed bool
}

// Table represents a loaded table file with the info we have about it.
type Table struct {
	opt        *Options
	id         uint64
	blockIndex []int // block offsets
	mmap       []byte
}

func (t *Table) blockCacheKey(idx int) uint64 {
	return t.id<<32 | uint64(idx)
}

func (t *Table) read(off, sz int) []byte {
	return t.mmap[off : off+sz]
}

// decompress decompresses the data stored in a block.
func (t *Table) decompress(b *block) error {
	if !t.opt.Compressed {
		return nil
	}
	dst := blockPool.Get().(*[]byte)
	b.data = append((*dst)[:0], b.data...) // snappy.Decode(*dst, b.data)
	b.isReusable = true
	return nil
}

func (t *Table) block(idx int) (*block, error) {
	if idx >= len(t.blockIndex) {
		return nil, errors.New("block out of index")
	}
	if t.opt.Cache != nil {
		key := t.blockCacheKey(idx)
		blk, ok := t.opt.Cache.Get(key)
		if ok && blk != nil {
			return blk.(*block), nil // want `useafterput`
		}
	}
	off := t.blockIndex[idx]
	blk := &block{
		offset: off,
	}
	blk.data = t.read(blk.offset, 64)
	if err := t.decompress(blk); err != nil {
		return nil, err
	}
	blk.entriesIndexStart = len(blk.data) / 2
	if t.opt.Cache != nil {
		key := t.blockCacheKey(idx)
		blk.incrRef()
		t.opt.Cache.Set(key, blk, blk.size())
	}
	return blk, nil
}

// ---- table/iterator.go ----

type blockIterator struct {
	data  []byte
	block *block
	err   error
}

func (itr *blockIterator) setBlock(b *block) {
	// Decrement the ref for the old block. If the old block was compressed, we
	// might be able to reuse it.
	itr.block.decrRef()
	// Increment the ref for the new block.
	b.incrRef()

	itr.block = b
	itr.err = nil
	// Drop the index from the block. We don't need it anymore.
	itr.data = b.data[:b.entriesIndexStart]
}

// Close closes the iterator.
func (itr *blockIterator) Close() {
	itr.block.decrRef()
}

// Iterator iterates over the blocks of a table.
type Iterator struct {
	t    *Table
	bpos int
	bi   blockIterator
	err  error
}

func (itr *Iterator) seekToFirst() {
	itr.bpos = 0
	block, err := itr.t.block(itr.bpos)
	if err != nil {
		itr.err = err
		return
	}
	itr.bi.setBlock(block)
}
