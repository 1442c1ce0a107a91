// Source: https://github.com/apache/arrow-adbc/pull/4625
// (commit 74d5395a880cc3301b83b771d1d756c729c67558,
// "fix(go/adbc/sqldriver): return owned copies of string/binary values")
//
// Bug: rows.Next returned array.String.Value / array.Binary.Value directly as
// the driver.Value. Those are zero-copy values aliasing the record batch's
// reference-counted value buffer. database/sql retains the driver.Values
// after Next returns, and the record reader releases the batch (its buffers
// go back to the allocator) when it advances, so the values read back as
// garbage (stale memory) - a use after release that surfaced once batches
// were released deterministically instead of by a finalizer.
//
// Fix: copy string/binary values into Go-owned memory (strings.Clone /
// bytes.Clone) before storing them in dest.
//
// Check: useafterput (the value buffer's memory is stored into the caller's
// dest slice, which outlives the record; the reader later releases the
// record. The report is expected at the store into dest)
package bug

import (
	"database/sql/driver"
	"io"
	"sync/atomic"
	"unsafe"
)

type Allocator interface {
	Allocate(size int) []byte
	Free(b []byte)
}

// Buffer mirrors arrow/memory.Buffer.
type Buffer struct {
	refCount int64
	buf      []byte
	mem      Allocator
}

func (b *Buffer) Retain() { atomic.AddInt64(&b.refCount, 1) }

func (b *Buffer) Release() {
	if atomic.AddInt64(&b.refCount, -1) == 0 {
		b.mem.Free(b.buf)
		b.buf = nil
	}
}

type Array interface {
	IsNull(i int) bool
	Release()
}

// Binary mirrors array.Binary.
type Binary struct {
	offsets []int32
	values  *Buffer
}

func (a *Binary) IsNull(i int) bool { return false }
func (a *Binary) Release()          { a.values.Release() }

// Value returns the slice at index i. This value should not be mutated.
func (a *Binary) Value(i int) []byte {
	return a.values.buf[a.offsets[i]:a.offsets[i+1]]
}

// String mirrors array.String.
type String struct {
	offsets []int32
	values  *Buffer
}

func (a *String) IsNull(i int) bool { return false }
func (a *String) Release()          { a.values.Release() }

// Value returns the slice at index i as a string (zero-copy).
func (a *String) Value(i int) string {
	b := a.values.buf[a.offsets[i]:a.offsets[i+1]]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

type Int64 struct{ values []int64 }

func (a *Int64) IsNull(i int) bool { return false }
func (a *Int64) Release()          {}
func (a *Int64) Value(i int) int64 { return a.values[i] }

// RecordBatch mirrors arrow.RecordBatch.
type RecordBatch struct {
	refCount int64
	cols     []Array
	rows     int64
}

func (r *RecordBatch) NumRows() int64   { return r.rows }
func (r *RecordBatch) Columns() []Array { return r.cols }

func (r *RecordBatch) Release() {
	if atomic.AddInt64(&r.refCount, -1) == 0 {
		for _, c := range r.cols {
			c.Release()
		}
	}
}

// recordReader mirrors the ADBC C stream reader: advancing releases the
// previous batch.
type recordReader struct {
	batches []*RecordBatch
	cur     *RecordBatch
}

func (rr *recordReader) Next() bool {
	if rr.cur != nil {
		rr.cur.Release()
		rr.cur = nil
	}
	if len(rr.batches) == 0 {
		return false
	}
	rr.cur, rr.batches = rr.batches[0], rr.batches[1:]
	return true
}

func (rr *recordReader) RecordBatch() *RecordBatch { return rr.cur }
func (rr *recordReader) Err() error                { return nil }

type rows struct {
	rdr       *recordReader
	curRecord *RecordBatch
	curRow    int64
}

func (r *rows) Next(dest []driver.Value) error {
	if r.curRecord != nil && r.curRow == r.curRecord.NumRows() {
		r.curRecord = nil
	}

	for r.curRecord == nil {
		if !r.rdr.Next() {
			if err := r.rdr.Err(); err != nil {
				return err
			}
			return io.EOF
		}
		r.curRecord = r.rdr.RecordBatch()
		r.curRow = 0
		if r.curRecord.NumRows() == 0 {
			r.curRecord = nil
		}
	}

	for i, col := range r.curRecord.Columns() {
		if col.IsNull(int(r.curRow)) {
			dest[i] = nil
			continue
		}
		switch col := col.(type) {
		case *Int64:
			dest[i] = col.Value(int(r.curRow))
		case *String:
			dest[i] = col.Value(int(r.curRow))
		case *Binary:
			dest[i] = col.Value(int(r.curRow)) // want `useafterput`
		}
	}

	r.curRow++
	return nil
}
