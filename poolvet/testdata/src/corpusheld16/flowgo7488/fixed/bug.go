// Package fixed is the fix of onflow/flow-go#7488
// (https://github.com/onflow/flow-go/pull/7488): Commit no longer closes the
// batch; the deferred Close in WithReaderBatchWriter is the only release.
package fixed

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

// Commit flushes the batch. The caller must still Close it.
func (b *ReaderBatchWriter) Commit() error {
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

	return batch.Commit()
}
