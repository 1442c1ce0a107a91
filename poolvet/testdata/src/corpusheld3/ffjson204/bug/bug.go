// Package bug reproduces the shape of pquerna/ffjson#204
// (https://github.com/pquerna/ffjson/pull/204, "Don't Pool buffers that are
// still in use", found while chasing #203): Buffer.grow handed its old backing
// slice to Pool on both of its paths, including the one that only slides the
// unread bytes down and keeps using that same slice. The next Buffer to take
// it from the pool wrote over this one's data.
//
// Check: useafterput (Put through the package's Pool wrapper, then the alias
// buf = b.buf[:m] is stored back into the Buffer; the report is at that first
// use after the Put).
package bug

import "sync"

// Size-class pools for Buffer storage. The project pools []byte values; this
// version pools *[]byte so that only the use-after-put shape is at stake.
var pools [14]sync.Pool
var pool64 *sync.Pool

func init() {
	for i := uint(6); i < 20; i++ {
		n := 1 << i
		pools[poolNum(n)].New = func() any {
			b := make([]byte, 0, n)
			return &b
		}
	}
	pool64 = &pools[0]
}

// poolNum returns the pool whose buffers hold at least i bytes, or -1.
func poolNum(i int) int {
	n := 0
	for size := 64; size < i; size <<= 1 {
		n++
	}
	if n >= len(pools) {
		return -1
	}
	return n
}

// Pool hands b to the pools for reuse by other Buffers. The caller must not
// use the contents of b afterwards: another goroutine may own it.
func Pool(b []byte) {
	if b == nil {
		return
	}
	c := cap(b)
	if c < 64 {
		return
	}
	// Round down so a buffer lands in the class it can fully serve.
	pn := poolNum((c + 2) >> 1)
	if pn != -1 {
		b = b[:0]
		pools[pn].Put(&b)
	}
}

// makeSlice returns a slice of length n, taken from a pool when possible.
func makeSlice(n int) []byte {
	if n <= 64 {
		return (*pool64.Get().(*[]byte))[0:n]
	}
	if pn := poolNum(n); pn != -1 {
		return (*pools[pn].Get().(*[]byte))[0:n]
	}
	return make([]byte, n)
}

// Buffer is a bytes.Buffer look-alike whose storage comes from the pools.
type Buffer struct {
	buf []byte
	off int
}

func (b *Buffer) Len() int { return len(b.buf) - b.off }

func (b *Buffer) Truncate(n int) {
	if n == 0 {
		b.off = 0
		b.buf = b.buf[0:0]
		return
	}
	b.buf = b.buf[0 : b.off+n]
}

func (b *Buffer) Bytes() []byte { return b.buf[b.off:] }

// grow makes room for n more bytes and returns where they go.
func (b *Buffer) grow(n int) int {
	m := b.Len()
	if m == 0 {
		if b.buf == nil {
			b.buf = makeSlice(2 * n)
			b.off = 0
		} else if b.off != 0 {
			b.Truncate(0)
		}
	}
	if len(b.buf)+n > cap(b.buf) {
		var buf []byte
		if m+n <= cap(b.buf)/2 {
			// Enough room: slide the unread bytes down in place.
			copy(b.buf[:], b.buf[b.off:])
			buf = b.buf[:m]
		} else {
			// Not enough room anywhere: move to a bigger slice.
			buf = makeSlice(2*cap(b.buf) + n)
			copy(buf, b.buf[b.off:])
		}
		// The old storage goes back even when buf is a re-slice of it.
		Pool(b.buf)
		b.buf = buf // want `useafterput`
		b.off = 0
	}
	b.buf = b.buf[0 : b.off+m+n]
	return b.off + m
}

func (b *Buffer) Write(p []byte) (int, error) {
	m := b.grow(len(p))
	return copy(b.buf[m:], p), nil
}
