// Package fixed is the fixed twin of matrixorigin/matrixone#18078
// (https://github.com/matrixorigin/matrixone/pull/18078): the join no longer
// puts back the batch its child returned; the child owns it and frees it.
package fixed

import "sync"

const maxBatchRows = 8192

type Batch struct {
	col      []int64
	rowCount int
}

func (b *Batch) IsEmpty() bool { return b.rowCount == 0 }

var batchPool = sync.Pool{New: func() any { return new(Batch) }}

type Process struct{}

func (proc *Process) NewBatch() *Batch {
	b := batchPool.Get().(*Batch)
	b.col = b.col[:0]
	b.rowCount = 0
	return b
}

// PutBatch gives a batch back to the pool unless it grew too large.
func (proc *Process) PutBatch(bat *Batch) {
	if bat == nil || cap(bat.col) > maxBatchRows {
		return
	}
	bat.col = bat.col[:0]
	bat.rowCount = 0
	batchPool.Put(bat)
}

// Projection is the child: it owns the batch it returns and reuses it.
type Projection struct {
	src [][]int64
	pos int
	buf *Batch
}

func (p *Projection) Call(proc *Process) *Batch {
	if p.pos >= len(p.src) {
		return nil
	}
	if p.buf == nil {
		p.buf = proc.NewBatch()
	}
	p.buf.col = append(p.buf.col[:0], p.src[p.pos]...)
	p.buf.rowCount = len(p.src[p.pos])
	p.pos++
	return p.buf
}

func (p *Projection) Free(proc *Process) {
	if p.buf != nil {
		proc.PutBatch(p.buf)
		p.buf = nil
	}
}

type container struct {
	mp map[int64]struct{}
}

type SemiJoin struct {
	child *Projection
	ctr   container
}

func (ctr *container) probe(bat, result *Batch) {
	for _, v := range bat.col {
		if _, ok := ctr.mp[v]; ok {
			result.col = append(result.col, v)
			result.rowCount++
		}
	}
}

// Call returns a new batch of the probe rows that have a match.
func (semiJoin *SemiJoin) Call(proc *Process) *Batch {
	for {
		bat := semiJoin.child.Call(proc)
		if bat == nil {
			return nil
		}
		// bat belongs to the child, which reuses and frees it
		if bat.IsEmpty() {
			continue
		}
		result := proc.NewBatch()
		semiJoin.ctr.probe(bat, result)
		return result
	}
}

func (semiJoin *SemiJoin) Free(proc *Process) {
	semiJoin.child.Free(proc)
}
