// Package bug reproduces the shape of pquerna/ffjson commit fe84018
// (https://github.com/pquerna/ffjson/commit/fe840187c405a24839c4f5a5ec6a7ac4aa1070e7):
// the runtime buffer used by ffjson-generated marshalers keeps a set of
// power-of-two size-class pools. When a Buffer outgrows its slice, grow hands
// the old slice to Pool, which stored it with its length (and contents)
// unchanged. A later Buffer whose first write takes a slice from the smallest
// pool starts out with the previous user's length: its capacity check sees a
// full buffer, so it grows for nothing and copies the old bytes along. The fix
// truncated the slice to length zero before putting it back.
// The project pools plain []byte; here the slices are boxed in *[]byte so that
// only the missing truncation differs between the twins.
// Check: noreset (at the Put in Pool, which returns the slice with its old
// length and contents).
package bug

import "sync"

var pools []*sync.Pool
var pool64 *sync.Pool

func init() {
	pools = make([]*sync.Pool, 14)
	for i := 6; i < 20; i++ {
		n := 1 << uint(i)
		pools[poolNum(n)] = &sync.Pool{New: func() interface{} {
			s := make([]byte, 0, n)
			return &s
		}}
	}
	pool64 = pools[0]
}

// poolNum maps a capacity to the index of its size class, or -1 when the
// slice is too big to be kept.
func poolNum(i int) int {
	n := 0
	for c := 64; c <= 1<<19; c <<= 1 {
		if i <= c {
			return n
		}
		n++
	}
	return -1
}

// Pool sends a slice back for reuse by other buffers. The caller must not
// touch the slice afterwards.
func Pool(b []byte) {
	c := cap(b)
	pn := poolNum(c)
	if pn != -1 {
		pools[pn].Put(&b) // want `noreset`
	}
	// slices without a size class are left to the garbage collector
}

func makeSlice(n int) []byte {
	pn := poolNum(n)
	if pn != -1 {
		bp := pools[pn].Get().(*[]byte)
		return (*bp)[:n]
	}
	return make([]byte, n)
}

// Buffer is the growable output buffer the generated code writes into.
type Buffer struct {
	buf []byte
	off int
}

func (b *Buffer) Len() int { return len(b.buf) - b.off }

func (b *Buffer) Bytes() []byte { return b.buf[b.off:] }

func (b *Buffer) Truncate(n int) {
	if n == 0 {
		b.off = 0
		b.buf = b.buf[0:0]
	} else {
		b.buf = b.buf[0 : b.off+n]
	}
}

func (b *Buffer) grow(n int) int {
	m := b.Len()
	if m == 0 {
		if b.buf == nil {
			// first write: take a slice from the smallest class
			b.buf = *pool64.Get().(*[]byte)
			b.off = 0
		} else if b.off != 0 {
			b.Truncate(0)
		}
	}
	if len(b.buf)+n > cap(b.buf) {
		buf := makeSlice(2*cap(b.buf) + n)
		copy(buf, b.buf[b.off:])
		Pool(b.buf)
		b.buf = buf
		b.off = 0
	}
	b.buf = b.buf[0 : b.off+m+n]
	return b.off + m
}

// Write appends p to the buffer.
func (b *Buffer) Write(p []byte) (int, error) {
	m := b.grow(len(p))
	return copy(b.buf[m:], p), nil
}

// WriteString appends s to the buffer.
func (b *Buffer) WriteString(s string) (int, error) {
	m := b.grow(len(s))
	return copy(b.buf[m:], s), nil
}
