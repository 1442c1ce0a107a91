// Source: https://github.com/cockroachdb/pebble/commit/5ab34209a3339f5b48ae6b7293c62fee43cc67a8
// (fixes https://github.com/cockroachdb/pebble/issues/3375)
//
// Bug: with WAL failover, the failover wal.Writer keeps the committed batch's
// data slice in its recordQueue after WriteRecord returns, because it may have
// to re-write the record to a new WAL file until the record is durably synced.
// DB.Set (and the other single-op helpers) committed a pooled Batch and then
// immediately called b.release(), which Resets the batch (truncating and
// clearing b.data for reuse) and puts it back into batchPool. The next
// newBatch reuses the same data buffer while the WAL writer may still read it
// from its queue, so the WAL could contain the mutated representation.
// Fix: a Batch.lifecycle atomic. WriteRecord receives b.refData and takes a
// reference when it retains the data; it unrefs after the sync. Batch.Close
// releases into the pool only when no reference is outstanding, otherwise it
// sets batchClosedBit and the last unref releases the batch; Reset discards
// b.data when a reference is outstanding. DB.Set calls b.Close().
//
// Check: useafterput (at the b.release() in DB.Set: the batch's data was
// handed to the asynchronous WAL writer, which keeps reading it after the
// batch went back to batchPool)
package bug

import (
	"sync"
	"sync/atomic"
)

const batchHeaderLen = 12

const batchMaxRetainedSize = 1 << 20 // 1 MB

type SyncOptions struct {
	Done *sync.WaitGroup
	Err  *error
}

// Writer writes to a virtual WAL. The record is asynchronously persisted to
// the underlying writer.
type Writer interface {
	WriteRecord(p []byte, opts SyncOptions) (logicalOffset int64, err error)
}

// recordQueueEntry is an entry in recordQueue.
type recordQueueEntry struct {
	p    []byte
	opts SyncOptions
}

// recordQueue holds the records that are not yet durably synced so that they
// can be re-written to a new log file on failover.
type recordQueue struct {
	mu     sync.Mutex
	buffer []recordQueueEntry
}

func (q *recordQueue) push(p []byte, opts SyncOptions) {
	q.mu.Lock()
	q.buffer = append(q.buffer, recordQueueEntry{p: p, opts: opts})
	q.mu.Unlock()
}

// pop is called once the records have been synced.
func (q *recordQueue) pop(n int, err error) {
	q.mu.Lock()
	popped := q.buffer[:n]
	q.buffer = q.buffer[n:]
	q.mu.Unlock()
	for i := range popped {
		if popped[i].opts.Done != nil {
			if err != nil {
				*popped[i].opts.Err = err
			}
			popped[i].opts.Done.Done()
		}
	}
}

type failoverWriter struct {
	q       recordQueue
	offset  int64
	writeFn func(p []byte) error
}

func (ww *failoverWriter) WriteRecord(p []byte, opts SyncOptions) (int64, error) {
	ww.q.push(p, opts)
	ww.offset += int64(len(p))
	return ww.offset, nil
}

// switchToNewDir re-writes all the queued, not yet synced records to the new
// log file.
func (ww *failoverWriter) switchToNewDir() error {
	ww.q.mu.Lock()
	defer ww.q.mu.Unlock()
	for _, e := range ww.q.buffer {
		if err := ww.writeFn(e.p); err != nil {
			return err
		}
	}
	return nil
}

type batchInternal struct {
	db    *DB
	data  []byte
	count uint32
}

type Batch struct {
	batchInternal
	applied atomic.Bool
}

var batchPool = sync.Pool{
	New: func() interface{} {
		return &Batch{}
	},
}

func newBatch(db *DB) *Batch {
	b := batchPool.Get().(*Batch)
	b.db = db
	return b
}

func (b *Batch) init(size int) {
	if cap(b.data) < size {
		b.data = make([]byte, batchHeaderLen, size)
	}
	b.data = b.data[:batchHeaderLen]
}

func (b *Batch) Set(key, value []byte) error {
	if len(b.data) == 0 {
		b.init(len(key) + len(value) + 2*8 + batchHeaderLen)
	}
	b.count++
	b.data = append(b.data, 1)
	b.data = append(b.data, byte(len(key)))
	b.data = append(b.data, key...)
	b.data = append(b.data, byte(len(value)))
	b.data = append(b.data, value...)
	return nil
}

func (b *Batch) release() {
	if b.db == nil {
		// The batch was not created using newBatch, or an error was
		// encountered. Let the GC do its job.
		return
	}
	b.db = nil
	b.Reset()
	batchPool.Put(b)
}

// Close closes the batch without committing it.
func (b *Batch) Close() error {
	b.release()
	return nil
}

// Reset resets the batch for reuse.
func (b *Batch) Reset() {
	// Zero out the struct, retaining only the fields necessary for manual
	// reuse.
	b.batchInternal = batchInternal{
		data: b.data,
		db:   b.db,
	}
	b.applied.Store(false)
	if b.data != nil {
		if cap(b.data) > batchMaxRetainedSize {
			b.data = nil
		} else {
			// Otherwise, reset the buffer for re-use.
			b.data = b.data[:batchHeaderLen]
			clear(b.data)
		}
	}
}

type DB struct {
	mu struct {
		sync.Mutex
		log struct {
			writer Writer
		}
	}
}

func (d *DB) commitWrite(b *Batch, syncWG *sync.WaitGroup, syncErr *error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, err := d.mu.log.writer.WriteRecord(b.data, SyncOptions{Done: syncWG, Err: syncErr})
	if err != nil {
		panic(err)
	}
	b.applied.Store(true)
	return nil
}

// Apply commits the batch. It does not wait for the WAL sync.
func (d *DB) Apply(b *Batch) error {
	return d.commitWrite(b, nil, nil)
}

// Set sets the value for the given key.
func (d *DB) Set(key, value []byte) error {
	b := newBatch(d)
	_ = b.Set(key, value)
	if err := d.Apply(b); err != nil {
		return err
	}
	// Only release the batch on success.
	b.release() // want `useafterput`
	return nil
}
