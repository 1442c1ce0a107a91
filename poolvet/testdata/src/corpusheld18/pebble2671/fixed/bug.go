// Package fixed is cockroachdb/pebble#2671 after commit aec16262: applyOp no
// longer closes the batch; the closeOp that always follows is its only
// owner of the Close.
package fixed

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
	// the batch is closed by the closeOp that is always generated after it
	return t.db.Apply(b)
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
	return (&closeOp{objID: slot}).run(t)
}
