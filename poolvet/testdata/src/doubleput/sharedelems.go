package doubleput

import "sync"

type column struct{ data []byte }

var columnPool = sync.Pool{New: func() any { return new(column) }}

type colChunk struct{ cols []*column }

// makeRef makes column dst the same object as column src.
func (c *colChunk) makeRef(src, dst int) { c.cols[dst] = c.cols[src] }

// After makeRef two elements are one column, put twice
// (pingcap/tidb#29809).
func (c *colChunk) recycle() {
	for _, col := range c.cols {
		col.data = col.data[:0]
		columnPool.Put(col) // want `col may be put twice: makeRef \(line 12\) copies one element of colChunk.cols into another`
	}
	c.cols = nil
}

type row struct{ vals []byte }

var rowPool = sync.Pool{New: func() any { return new(row) }}

type batch struct{ rows []*row }

// A swap leaves every row in one element: silent.
func (b *batch) swap(i, j int) { b.rows[i], b.rows[j] = b.rows[j], b.rows[i] }

// A removal that moves the last row into the hole and reslices: silent.
func (b *batch) remove(i int) {
	n := len(b.rows) - 1
	b.rows[i] = b.rows[n]
	b.rows = b.rows[:n]
}

func (b *batch) release() {
	for _, r := range b.rows {
		r.vals = r.vals[:0]
		rowPool.Put(r)
	}
	b.rows = nil
}
