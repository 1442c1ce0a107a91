// Package fixed is easyjson#103 after the fix: Close forgets the chunks it
// released, so a second Close puts nothing.
package fixed

import (
	"io"
	"sync"
)

const (
	startSize  = 128   // smallest chunk allocated
	pooledSize = 512   // smallest chunk reused
	maxSize    = 32768 // largest chunk allocated
)

// Reuse pools, one per chunk size. The project pools []byte values; this
// version pools *[]byte so that only the double put is at stake.
var buffers = map[int]*sync.Pool{}

func init() {
	for l := pooledSize; l <= maxSize; l *= 2 {
		buffers[l] = new(sync.Pool)
	}
}

// putBuf gives a chunk back to the pool of its size, if it can be reused.
func putBuf(buf []byte) {
	size := cap(buf)
	if size < pooledSize {
		return
	}
	if c := buffers[size]; c != nil {
		b := buf[:0]
		c.Put(&b)
	}
}

// getBuf takes a chunk from the pool of that size, or makes one.
func getBuf(size int) []byte {
	if size < pooledSize {
		return make([]byte, 0, size)
	}
	if c := buffers[size]; c != nil {
		if v := c.Get(); v != nil {
			return *(v.(*[]byte))
		}
	}
	return make([]byte, 0, size)
}

// Buffer is a chain of chunks used for serialization.
type Buffer struct {
	Buf    []byte
	toPool []byte
	bufs   [][]byte
}

func (b *Buffer) EnsureSpace(s int) {
	if cap(b.Buf)-len(b.Buf) >= s {
		return
	}
	l := len(b.Buf)
	if l > 0 {
		if cap(b.toPool) != cap(b.Buf) {
			// The chunk was reallocated by append, toPool is free.
			putBuf(b.toPool)
		}
		b.bufs = append(b.bufs, b.Buf)
		l = cap(b.toPool) * 2
	} else {
		l = startSize
	}
	if l > maxSize {
		l = maxSize
	}
	b.Buf = getBuf(l)
	b.toPool = b.Buf
}

func (b *Buffer) AppendBytes(data []byte) {
	for len(data) > 0 {
		if cap(b.Buf) == len(b.Buf) {
			b.EnsureSpace(1)
		}
		sz := cap(b.Buf) - len(b.Buf)
		if sz > len(data) {
			sz = len(data)
		}
		b.Buf = append(b.Buf, data[:sz]...)
		data = data[sz:]
	}
}

type readCloser struct {
	offset int
	bufs   [][]byte
}

func (r *readCloser) Read(p []byte) (n int, err error) {
	for _, buf := range r.bufs {
		x := copy(p[n:], buf[r.offset:])
		n += x
		if r.offset+x == len(buf) {
			// This chunk is fully read: on to the next one.
			r.offset = 0
			r.bufs = r.bufs[1:]
			putBuf(buf)
		} else {
			r.offset += x
		}
		if n == len(p) {
			break
		}
	}
	if len(r.bufs) == 0 {
		err = io.EOF
	}
	return
}

func (r *readCloser) Close() error {
	// Release all remaining chunks.
	for _, buf := range r.bufs {
		putBuf(buf)
	}
	// In case Close gets called again.
	r.bufs = nil
	return nil
}

// ReadCloser gives the whole content of the buffer to an io.ReadCloser, for
// example the body of an http.Request.
func (b *Buffer) ReadCloser() io.ReadCloser {
	ret := &readCloser{0, append(b.bufs, b.Buf)}
	b.bufs = nil
	b.toPool = nil
	b.Buf = nil
	return ret
}
