// Source: https://github.com/apache/arrow-go/pull/917
// (commit 68e738f86506f61796e57d68551269552d76cdbf, reported at
// https://github.com/adbc-drivers/bigquery/issues/229)
//
// Bug: ByteArrayStatistics.SetMinMax stored min/max as slices that alias the
// caller's value buffer (an Arrow array's reference-counted value buffer).
// When a column is written from a streaming RecordReader that releases each
// batch as it advances, the batch's buffers go back to the allocator
// (Release -> refcount 0 -> mem.Free) while the statistics still hold
// slices into them; later comparisons/serialization read freed memory
// (segfault with the C allocator, garbage with a poison-on-free allocator).
//
// Fix: SetMinMax copies min/max into statistics-owned buffers
// (s.min = append(s.min[:0], min...)).
//
// Check: useafterput (the memory of the record's value buffer is kept in the
// long-lived statistics object by UpdateFromArrow -> SetMinMax and the record
// is then released back to the allocator; the report is expected at the
// Release after that hand-off)
package fixed

import (
	"bytes"
	"sync/atomic"
)

// Allocator mirrors arrow/memory.Allocator.
type Allocator interface {
	Allocate(size int) []byte
	Free(b []byte)
}

// freeListAllocator stands in for the C allocator: freed blocks are reused.
type freeListAllocator struct {
	free [][]byte
}

func (a *freeListAllocator) Allocate(size int) []byte {
	for i, b := range a.free {
		if cap(b) >= size {
			a.free = append(a.free[:i], a.free[i+1:]...)
			return b[:size]
		}
	}
	return make([]byte, size)
}

func (a *freeListAllocator) Free(b []byte) {
	a.free = append(a.free, b[:0])
}

// Buffer mirrors arrow/memory.Buffer: reference counted, freed to mem.
type Buffer struct {
	refCount int64
	buf      []byte
	mem      Allocator
}

func NewResizableBuffer(mem Allocator, n int) *Buffer {
	return &Buffer{refCount: 1, buf: mem.Allocate(n), mem: mem}
}

func (b *Buffer) Retain() { atomic.AddInt64(&b.refCount, 1) }

func (b *Buffer) Release() {
	if atomic.AddInt64(&b.refCount, -1) == 0 {
		b.mem.Free(b.buf)
		b.buf = nil
	}
}

func (b *Buffer) Bytes() []byte { return b.buf }

// Binary mirrors array.Binary: offsets plus a value buffer.
type Binary struct {
	offsets []int32
	values  *Buffer
}

func (a *Binary) Len() int { return len(a.offsets) - 1 }

func (a *Binary) Value(i int) []byte {
	return a.values.Bytes()[a.offsets[i]:a.offsets[i+1]]
}

func (a *Binary) Release() { a.values.Release() }

// Record mirrors arrow.Record with a single binary column.
type Record struct {
	col *Binary
}

func (r *Record) Column(i int) *Binary { return r.col }

func (r *Record) Release() { r.col.Release() }

// ByteArrayStatistics mirrors metadata.ByteArrayStatistics.
type ByteArrayStatistics struct {
	hasMinMax bool
	min       []byte
	max       []byte
}

func (s *ByteArrayStatistics) less(a, b []byte) bool { return bytes.Compare(a, b) < 0 }

func (s *ByteArrayStatistics) UpdateFromArrow(values *Binary) {
	if values.Len() == 0 {
		return
	}
	min, max := values.Value(0), values.Value(0)
	for i := 1; i < values.Len(); i++ {
		v := values.Value(i)
		if s.less(v, min) {
			min = v
		}
		if s.less(max, v) {
			max = v
		}
	}
	s.SetMinMax(min, max)
}

// SetMinMax updates the min and max values only if they are not currently set
// or if argMin is less than the current min / argMax is greater than the current max
//
// The min and max are copied into statistics-owned buffers rather than retaining
// the provided slices. Those slices typically alias the source column data (e.g.
// an Arrow value buffer) which may be released before the statistics are
// serialized during Close, so aliasing them would leave dangling references.
func (s *ByteArrayStatistics) SetMinMax(min, max []byte) {
	if !s.hasMinMax {
		s.hasMinMax = true
		s.min = append(s.min[:0], min...)
		s.max = append(s.max[:0], max...)
	} else {
		if !s.less(s.min, min) {
			s.min = append(s.min[:0], min...)
		}
		if s.less(s.max, max) {
			s.max = append(s.max[:0], max...)
		}
	}
}

func (s *ByteArrayStatistics) Encode() (min, max []byte) {
	return append([]byte(nil), s.min...), append([]byte(nil), s.max...)
}

// RecordReader mirrors array.RecordReader.
type RecordReader interface {
	Next() bool
	Record() *Record
}

// writeStream mirrors the streaming write path (BindStream + ExecuteUpdate ->
// pqarrow writeDenseArrow): each batch is released once it has been written.
func writeStream(rdr RecordReader, stats *ByteArrayStatistics) (min, max []byte) {
	for rdr.Next() {
		rec := rdr.Record()
		stats.UpdateFromArrow(rec.Column(0))
		rec.Release()
	}
	return stats.Encode()
}
