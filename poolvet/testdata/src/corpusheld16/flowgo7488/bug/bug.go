// Package bug reproduces the shape of onflow/flow-go#7488
// (https://github.com/onflow/flow-go/pull/7488): WithReaderBatchWriter
// defers batch.Close() and then returns batch.Commit(), and Commit itself
// also closes the pebble batch (with a defer of its own). Pebble's
// Batch.Close resets the batch and puts it into a sync.Pool; its nil-db
// check only stops the second Close while nobody has taken the batch out of
// the pool again. In between, another writer can get it, so the second Close
// pooled a batch that was in use (crashes with a nil Batch.db / zero seqnum).
//
// Check: doubleput (Close of a pooled batch in a Commit wrapper, then again
// from the caller's deferred Close; reported at the `return batch.Commit()`
// call, as for `defer enc.Discard()` + `return enc.Commit()` in the docs).
package bug

import (
	"errors"
	"sync"
)

type DB struct {
	mu   sync.Mutex
	data map[string][]byte
	seq  uint64
}

// Batch mimics pebble's Batch: pooled, released by Close.
type Batch struct {
	db     *DB
	seqNum uint64
	keys   []string
	values [][]byte
}

var batchPool = sync.Pool{
	New: func() any { return &Batch{} },
}

func (d *DB) NewBatch() *Batch {
	b := batchPool.Get().(*Batch)
	b.db = d
	return b
}

func (b *Batch) Set(key, value []byte) error {
	b.keys = append(b.keys, string(key))
	b.values = append(b.values, value)
	return nil
}

func (b *Batch) Commit() error {
	if b.db == nil {
		return errors.New("pebble: batch not associated with a DB")
	}
	d := b.db
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.data == nil {
		d.data = make(map[string][]byte)
	}
	d.seq++
	b.seqNum = d.seq
	for i, k := range b.keys {
		d.data[k] = b.values[i]
	}
	return nil
}

// release resets the batch and returns it to the pool, unless it was
// already released (db == nil).
func (b *Batch) release() {
	if b.db == nil {
		return
	}
	b.db = nil
	b.seqNum = 0
	b.keys = b.keys[:0]
	b.values = b.values[:0]
	batchPool.Put(b)
}

// Close closes the batch without committing it.
func (b *Batch) Close() error {
	b.release()
	return nil
}

type Callbacks struct {
	fns []func(error)
}

func (c *Callbacks) AddCallback(fn func(error)) { c.fns = append(c.fns, fn) }

func (c *Callbacks) NotifyCallbacks(err error) {
	for _, fn := range c.fns {
		fn(err)
	}
}

type ReaderBatchWriter struct {
	batch     *Batch
	callbacks *Callbacks
}

func NewReaderBatchWriter(db *DB) *ReaderBatchWriter {
	return &ReaderBatchWriter{
		batch:     db.NewBatch(),
		callbacks: &Callbacks{},
	}
}

func (b *ReaderBatchWriter) Set(key, value []byte) error {
	return b.batch.Set(key, value)
}

func (b *ReaderBatchWriter) AddCallback(fn func(error)) {
	b.callbacks.AddCallback(fn)
}

// Commit flushes the batch and releases it.
func (b *ReaderBatchWriter) Commit() error {
	defer b.batch.Close()

	err := b.batch.Commit()
	b.callbacks.NotifyCallbacks(err)
	return err
}

// Close releases the batch without committing it.
func (b *ReaderBatchWriter) Close() error {
	b.batch.Close()
	return nil
}

func WithReaderBatchWriter(db *DB, fn func(*ReaderBatchWriter) error) error {
	batch := NewReaderBatchWriter(db)
	defer batch.Close()

	err := fn(batch)
	if err != nil {
		batch.callbacks.NotifyCallbacks(err)
		return err
	}

	return batch.Commit() // want `doubleput`
}
