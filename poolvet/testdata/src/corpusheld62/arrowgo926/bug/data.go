// Source: https://github.com/apache/arrow-go/pull/926
// (commit 168951e287b98456611fac4dc1de021bc52e95f8,
// "fix(array): retain dictionary before replacement")
//
// Bug: Data.SetDictionary released the existing dictionary before retaining
// the replacement. Replacing a dictionary with the same pointer while the
// parent held the final reference dropped the count to zero, so the
// dictionary's buffers went back to the allocator and the dictionary was
// cleared; the following Retain then "resurrected" a released object whose
// memory the allocator already owns.
//
// Fix: retain the replacement first, swap it in, then release the previous
// dictionary.
//
// Check: useafterput (dict may be the object that was just released through
// d.dictionary.Release(); the report is expected at dict.Retain(), the use
// after that release)
package bug

import "sync/atomic"

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

// ArrayData mirrors arrow.ArrayData.
type ArrayData interface {
	Retain()
	Release()
	Buffers() []*Buffer
}

// Data mirrors array.Data.
type Data struct {
	refCount   int64
	buffers    []*Buffer
	dictionary *Data
	length     int
}

func NewData(buffers []*Buffer, length int) *Data {
	for _, b := range buffers {
		if b != nil {
			b.Retain()
		}
	}
	return &Data{refCount: 1, buffers: buffers, length: length}
}

// Retain increases the reference count by 1.
func (d *Data) Retain() {
	atomic.AddInt64(&d.refCount, 1)
}

// Release decreases the reference count by 1.
// When the reference count goes to zero, the memory is freed.
func (d *Data) Release() {
	if atomic.AddInt64(&d.refCount, -1) == 0 {
		for _, b := range d.buffers {
			if b != nil {
				b.Release()
			}
		}
		if d.dictionary != nil {
			d.dictionary.Release()
		}
		d.dictionary, d.buffers = nil, nil
	}
}

func (d *Data) Buffers() []*Buffer { return d.buffers }

func (d *Data) Dictionary() ArrayData { return d.dictionary }

// SetDictionary allows replacing the dictionary for this particular Data object
func (d *Data) SetDictionary(dict ArrayData) {
	if d.dictionary != nil {
		d.dictionary.Release()
		d.dictionary = nil
	}
	if dict.(*Data) != nil {
		dict.Retain() // want `useafterput`
		d.dictionary = dict.(*Data)
	}
}

// rebindDictionary re-sets the parent's own dictionary, e.g. after unifying
// dictionaries where the unified result is the existing one.
func rebindDictionary(parent *Data) {
	parent.SetDictionary(parent.Dictionary())
}
