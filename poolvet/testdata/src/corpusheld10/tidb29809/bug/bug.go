// Package bug reproduces the shape of pingcap/tidb#29809
// (https://github.com/pingcap/tidb/pull/29809, closing pingcap/tidb#29554):
// not every column of a chunk is its own allocation; MakeRef makes one
// column slot point at another column. When the allocator recycled the
// chunk's columns it put back every slot, so a column referenced from two
// slots went into the pool twice and was later handed to two users at once.
// The fix deduplicates the columns (a set instead of a slice) before
// putting them back. (TiDB's pool is its own free list; sync.Pool stands in
// for it here.)
//
// Check: doubleput (a loop puts every element of a slice back, and two
// elements are the same pooled object because MakeRef aliased them).
package bug

import "sync"

const maxColLen = 1024

type Column struct {
	data []byte
	n    int
}

func (c *Column) reset() {
	c.data = c.data[:0]
	c.n = 0
}

var columnPool = sync.Pool{New: func() any {
	return &Column{data: make([]byte, 0, maxColLen)}
}}

type Chunk struct {
	columns []*Column
}

func newChunk(ncols int) *Chunk {
	c := &Chunk{columns: make([]*Column, ncols)}
	for i := range c.columns {
		c.columns[i] = columnPool.Get().(*Column)
	}
	return c
}

// MakeRef makes column dst share column src, as a projection that repeats a
// column does.
func (c *Chunk) MakeRef(src, dst int) {
	c.columns[dst] = c.columns[src]
}

// recycle gives the chunk's columns back to the pool.
func (c *Chunk) recycle() {
	for _, col := range c.columns {
		if cap(col.data) > maxColLen {
			continue
		}
		col.reset()
		columnPool.Put(col) // want `doubleput`
	}
	c.columns = nil
}

func Project(ncols int) int {
	chk := newChunk(ncols)
	if ncols > 2 {
		chk.MakeRef(1, 2)
	}
	n := len(chk.columns)
	chk.recycle()
	return n
}
