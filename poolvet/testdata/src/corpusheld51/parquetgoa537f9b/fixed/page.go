// Source: https://github.com/parquet-go/parquet-go/commit/a537f9bd79f3b7aebbe6c1f4c69b1bf324d4fb3c
// ("fix: clone byte array page buffers to prevent use-after-free").
//
// Bug: decodeDataPage decodes a BYTE_ARRAY page into a values buffer and an
// offsets buffer taken from the package's reference-counted buffer pools
// (buffers, offsets) and builds the byteArrayPage with
// memory.SliceBufferFrom(data) / SliceBufferFrom(offsets), i.e. the inner
// page aliases the pooled memory. The page is wrapped in a bufferedPage whose
// Release drops the last reference and puts both buffers back into their
// sync.Pool-backed pools. When the wrapper is released while the inner page
// is still being read (MergeRowGroups over several files sharing the pools),
// the pooled memory is handed out again and the page reads corrupted offsets
// ("slice bounds out of range", offset[i]=151, offset[i+1]=0).
//
// Fix: newByteArrayPage clones the values and offsets, so the page owns its
// data and the pooled buffers can be recycled.
//
// (The project later replaced the clone by other changes in 1f740be, whose
// regression test TestMergeRowGroupsByteArrayUseAfterFree names the same
// use-after-free of the pooled offsets buffer.)
//
// The merge side is reduced to a cursor that keeps the values reader of the
// inner page after releasing the wrapper, as described in the commit message.
//
// Check: useafterput (the values reader of the byteArrayPage reads offsets
// and values that alias pooled buffers already put back by Release(p))
package fixed

import (
	"encoding/binary"
	"errors"
	"io"
	"sync"
	"sync/atomic"
)

// internal/memory.Pool, trimmed.
type memoryPool[T any] struct{ pool sync.Pool }

func (p *memoryPool[T]) Get(newFunc func() *T, resetFunc func(*T)) *T {
	v, _ := p.pool.Get().(*T)
	if v == nil {
		v = newFunc()
	} else {
		resetFunc(v)
	}
	return v
}

func (p *memoryPool[T]) Put(v *T) { p.pool.Put(v) }

type datum interface{ byte | uint32 }

type buffer[T datum] struct {
	data []T
	refc atomic.Int32
	pool *bufferPool[T]
}

func (b *buffer[T]) ref() {
	if b.refc.Add(1) <= 1 {
		panic("BUG: buffer reference count overflow")
	}
}

func (b *buffer[T]) unref() {
	switch refc := b.refc.Add(-1); {
	case refc < 0:
		panic("BUG: buffer reference count underflow")
	case refc == 0:
		b.data = b.data[:0]
		if b.pool != nil {
			b.pool.put(b)
		}
	}
}

type bufferPool[T datum] struct {
	pool memoryPool[buffer[T]]
}

func (p *bufferPool[T]) get(size int) *buffer[T] {
	b := p.pool.Get(
		func() *buffer[T] { return &buffer[T]{pool: p} },
		func(*buffer[T]) {},
	)
	if cap(b.data) < size {
		b.data = make([]T, size)
	}
	b.data = b.data[:size]
	b.refc.Store(1)
	return b
}

func (p *bufferPool[T]) put(b *buffer[T]) {
	if b.pool != p {
		panic("BUG: buffer returned to a different pool than the one it was allocated from")
	}
	if b.refc.Load() != 0 {
		panic("BUG: buffer returned to pool with a non-zero reference count")
	}
	p.pool.Put(b)
}

var (
	buffers bufferPool[byte]
	offsets bufferPool[uint32]
)

type ValueReader interface {
	ReadValues(values [][]byte) (int, error)
}

type Page interface {
	NumValues() int64
	Values() ValueReader
}

type byteArrayPage struct {
	values  []byte
	offsets []uint32
}

func newByteArrayPage(numValues int32, data []byte, offsets []uint32) *byteArrayPage {
	// Clone the buffers to ensure the page owns its data.
	// The input slices may come from pooled buffers that get released
	// after the page is created, which would cause use-after-free bugs.
	return &byteArrayPage{
		values:  clone(data),
		offsets: clone(offsets[:numValues+1]),
	}
}

// memory.SliceBuffer.Clone, trimmed.
func clone[T datum](s []T) []T {
	return append(make([]T, 0, len(s)), s...)
}

func (page *byteArrayPage) NumValues() int64 { return int64(len(page.offsets) - 1) }

func (page *byteArrayPage) Values() ValueReader { return &byteArrayPageValues{page: page} }

func (page *byteArrayPage) index(i int) []byte {
	j := page.offsets[i+0]
	k := page.offsets[i+1]
	return page.values[j:k:k]
}

type byteArrayPageValues struct {
	page   *byteArrayPage
	offset int
}

func (r *byteArrayPageValues) ReadValues(values [][]byte) (n int, err error) {
	for n < len(values) && r.offset < int(r.page.NumValues()) {
		values[n] = r.page.index(r.offset)
		r.offset++
		n++
	}
	if r.offset == int(r.page.NumValues()) {
		err = io.EOF
	}
	return n, err
}

type bufferedPage struct {
	Page
	offsets *buffer[uint32]
	values  *buffer[byte]
}

func newBufferedPage(page Page, offsets *buffer[uint32], values *buffer[byte]) *bufferedPage {
	p := &bufferedPage{Page: page, offsets: offsets, values: values}
	bufferRef(offsets)
	bufferRef(values)
	return p
}

func (p *bufferedPage) Release() {
	Release(p.Page)
	bufferUnref(p.offsets)
	bufferUnref(p.values)
}

func bufferRef[T datum](buf *buffer[T]) {
	if buf != nil {
		buf.ref()
	}
}

func bufferUnref[T datum](buf *buffer[T]) {
	if buf != nil {
		buf.unref()
	}
}

type releasable interface{ Release() }

func Release(page Page) {
	if p, _ := page.(releasable); p != nil {
		p.Release()
	}
}

var errMalformed = errors.New("malformed PLAIN byte array page")

// decodeByteArray decodes PLAIN encoded byte arrays (4 bytes little endian
// length prefix) into dst and the offsets into offs.
func decodeByteArray(dst []byte, offs []uint32, src []byte) ([]byte, []uint32, error) {
	offs = append(offs[:0], 0)
	for len(src) > 0 {
		if len(src) < 4 {
			return dst, offs, errMalformed
		}
		n := int(binary.LittleEndian.Uint32(src))
		src = src[4:]
		if n > len(src) {
			return dst, offs, errMalformed
		}
		dst = append(dst, src[:n]...)
		offs = append(offs, uint32(len(dst)))
		src = src[n:]
	}
	return dst, offs, nil
}

func decodeDataPage(numValues int, data []byte) (Page, error) {
	vbuf := buffers.get(len(data))
	defer vbuf.unref()
	obuf := offsets.get(numValues + 1)
	defer obuf.unref()

	pageValues, pageOffsets, err := decodeByteArray(vbuf.data[:0], obuf.data[:0], data)
	if err != nil {
		return nil, err
	}
	newPage := newByteArrayPage(int32(numValues), pageValues, pageOffsets)
	return newBufferedPage(newPage, obuf, vbuf), nil
}

// mergeCursor walks the pages of one of the row groups being merged.
type mergeCursor struct {
	values ValueReader
}

func (c *mergeCursor) open(numValues int, data []byte) error {
	p, err := decodeDataPage(numValues, data)
	if err != nil {
		return err
	}
	c.values = p.Values()
	Release(p)
	return nil
}

func mergePages(numValues []int, pages [][]byte, emit func([]byte)) error {
	cursors := make([]mergeCursor, len(pages))
	for i := range pages {
		if err := cursors[i].open(numValues[i], pages[i]); err != nil {
			return err
		}
	}
	var v [1][]byte
	for done := 0; done < len(cursors); {
		done = 0
		for i := range cursors {
			n, err := cursors[i].values.ReadValues(v[:])
			if n == 1 {
				emit(v[0])
			}
			if err == io.EOF {
				done++
			}
		}
	}
	return nil
}
