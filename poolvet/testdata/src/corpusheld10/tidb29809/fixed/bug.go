// Package fixed is pingcap/tidb#29809 after the fix
// (https://github.com/pingcap/tidb/pull/29809): the columns are collected
// into a set first, so a column referenced from two slots goes back to the
// pool once.
package fixed

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

// recycle gives each distinct column of the chunk back to the pool once.
func (c *Chunk) recycle() {
	seen := make(map[*Column]struct{}, len(c.columns))
	for _, col := range c.columns {
		seen[col] = struct{}{}
	}
	for col := range seen {
		if cap(col.data) > maxColLen {
			continue
		}
		col.reset()
		columnPool.Put(col)
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
