// Package bug reproduces the shape of cockroachdb/pebble#2671, fixed by
// commit aec16262da27dd600045cbb43f186e08e370bc1d
// (https://github.com/cockroachdb/pebble/issues/2671,
// https://github.com/cockroachdb/pebble/commit/aec16262da27dd600045cbb43f186e08e370bc1d).
// The metamorphic test's applyOp closed the batch after applying it, and the
// generator always emits a closeOp for the same batch afterwards, so the
// batch went through Batch.Close (which puts it back into batchPool) twice.
// Here the generated "apply, then close" sequence for one batch is run back
// to back by runBatch.
//
// Check: doubleput (a Close-like method that puts the receiver into a
// sync.Pool is reached twice for the same object: once inside the apply
// step, once in the close step that finds the batch through the test's
// object table). The report belongs at the second close, i.e. the closeOp
// step in runBatch (the Put itself is in release, reached through Close).
package bug

import (
	"io"
	"sync"
)

type DB struct {
	applied int
}

type Batch struct {
	db   *DB
	data []byte
}

const maxRetainedBatchSize = 1 << 20

var batchPool = sync.Pool{New: func() any { return &Batch{} }}

func (d *DB) NewBatch() *Batch {
	b := batchPool.Get().(*Batch)
	b.db = d
	return b
}

func (d *DB) Apply(b *Batch) error {
	d.applied += len(b.data)
	return nil
}

func (b *Batch) Set(k, v []byte) {
	b.data = append(b.data, k...)
	b.data = append(b.data, v...)
}

// Close releases the batch back to the pool.
func (b *Batch) Close() error {
	b.release()
	return nil
}

func (b *Batch) release() {
	if b.db == nil {
		return
	}
	b.db = nil
	if cap(b.data) > maxRetainedBatchSize {
		// too big to keep around (not in pebble; keeps this case about one check)
		return
	}
	b.data = b.data[:0]
	batchPool.Put(b)
}

type test struct {
	db      *DB
	batches []*Batch
}

func (t *test) getBatch(slot int) *Batch { return t.batches[slot] }

func (t *test) getCloser(slot int) io.Closer { return t.batches[slot] }

func (t *test) clearObj(slot int) { t.batches[slot] = nil }

type applyOp struct{ batchID int }

func (o *applyOp) run(t *test) error {
	b := t.getBatch(o.batchID)
	err := t.db.Apply(b)
	_ = b.Close()
	return err
}

type closeOp struct{ objID int }

func (o *closeOp) run(t *test) error {
	c := t.getCloser(o.objID)
	t.clearObj(o.objID)
	return c.Close()
}

func runBatch(t *test, slot int, k, v []byte) error {
	b := t.db.NewBatch()
	b.Set(k, v)
	t.batches[slot] = b
	if err := (&applyOp{batchID: slot}).run(t); err != nil {
		return err
	}
	return (&closeOp{objID: slot}).run(t) // want `doubleput`
}
