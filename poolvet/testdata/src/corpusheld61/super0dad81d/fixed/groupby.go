// Source: https://github.com/brimdata/super/pull/5030
// (commit 0dad81d3c01158ee2564773a84e22eace442b84d, "Fix batch reference
// counting in runtime/sam/op/groupby").
//
// Bug: zbuf.Batch is reference counted; when the count of a pullerBatch falls
// to zero, Unref puts it back into pullerBatchPool (a sync.Pool) and its
// values and buffer are reused by the next Pull. groupby.Op.run called
// batch.Unref() right after consuming the batch's values, but for sorted
// input it then went on to pass the same batch to agg.nextResult, which
// evaluates key expressions against it and wraps it in the result batch
// (zbuf.NewBatch). The batch was used after it went back to the pool.
//
// Fix: move batch.Unref() so it runs only after the batch's last use: in the
// unsorted branch before the continue, and at the end of the loop body for
// sorted input.
//
// Check: useafterput (the call o.agg.nextResult(false, batch) after
// batch.Unref() has put the batch back into pullerBatchPool)
package fixed

import (
	"sync"
	"sync/atomic"
)

type Value struct {
	Bytes []byte
}

// Batch is an interface to a bundle of values. Reference counting allows
// efficient, safe reuse in concert with sharing across goroutines.
type Batch interface {
	Ref()
	Unref()
	Values() []Value
	Vars() []Value
}

type pullerBatch struct {
	buf  []byte
	refs atomic.Int32
	vals []Value
}

var pullerBatchPool sync.Pool

func newPullerBatch() *pullerBatch {
	b, ok := pullerBatchPool.Get().(*pullerBatch)
	if !ok {
		b = &pullerBatch{
			buf:  make([]byte, 512*1024),
			vals: make([]Value, 100),
		}
	}
	b.buf = b.buf[:0]
	b.refs.Store(1)
	b.vals = b.vals[:0]
	return b
}

func (b *pullerBatch) Ref() { b.refs.Add(1) }

func (b *pullerBatch) Unref() {
	if refs := b.refs.Add(-1); refs == 0 {
		pullerBatchPool.Put(b)
	} else if refs < 0 {
		panic("zbuf: negative batch reference count")
	}
}

func (b *pullerBatch) Values() []Value { return b.vals }
func (*pullerBatch) Vars() []Value     { return nil }

type batch struct {
	Batch
	vals []Value
}

func NewBatch(b Batch, vals []Value) Batch {
	return &batch{Batch: b, vals: vals}
}

func (b *batch) Values() []Value { return b.vals }

type Puller interface {
	Pull(bool) (Batch, error)
}

type Aggregator struct {
	inputDir int
	table    map[string][]Value
}

func (a *Aggregator) Consume(batch Batch, this Value) error {
	key := string(this.Bytes)
	a.table[key] = append(a.table[key], Value{Bytes: append([]byte(nil), this.Bytes...)})
	return nil
}

func (a *Aggregator) nextResult(eof bool, batch Batch) (Batch, error) {
	var recs []Value
	for key, row := range a.table {
		if !eof && len(row) == 0 {
			continue
		}
		recs = append(recs, Value{Bytes: []byte(key)})
		delete(a.table, key)
	}
	if len(recs) == 0 {
		return nil, nil
	}
	return NewBatch(batch, recs), nil
}

type Op struct {
	parent   Puller
	agg      *Aggregator
	batch    Batch
	resultCh chan Batch
}

func (o *Op) run() {
	defer close(o.resultCh)
	for {
		batch, err := o.parent.Pull(false)
		if err != nil {
			return
		}
		if batch == nil {
			if o.batch != nil {
				o.batch.Unref()
				o.batch = nil
			}
			return
		}
		if o.batch == nil {
			batch.Ref()
			o.batch = batch
		}
		vals := batch.Values()
		for i := range vals {
			if err := o.agg.Consume(batch, vals[i]); err != nil {
				return
			}
		}
		if o.agg.inputDir == 0 {
			batch.Unref()
			continue
		}
		// sorted input: see if we have any completed keys we can emit.
		for {
			res, err := o.agg.nextResult(false, batch)
			if err != nil || res == nil {
				break
			}
			o.resultCh <- res
		}
		batch.Unref()
	}
}
