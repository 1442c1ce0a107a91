// Source: https://github.com/valyala/quicktemplate/commit/2a56560d0070f1b67193d7681271e420278efac8
// ("Use github.com/valyala/bytebufferpool, since it should protect from
// memory fragmentation related to differently-sized buffers in concurrent
// use"); bytebufferpool as of its initial implementation,
// https://github.com/valyala/bytebufferpool/commit/21bf76e (pool.go).
//
// Fixed: ByteBuffer is bytebufferpool.ByteBuffer and Acquire/Release are
// delegated to bytebufferpool, whose Release drops oversized buffers and
// segments the rest by size. bytebufferpool is re-created below (trimmed) so
// that the package only imports the standard library.
package fixed

import (
	"io"
	"sync"
)

// ---- github.com/valyala/bytebufferpool (initial implementation) ----

// bbpByteBuffer stands for bytebufferpool.ByteBuffer.
type bbpByteBuffer struct {
	// B is a byte buffer to use in append-like workloads.
	B []byte
}

// Write implements io.Writer - it appends p to ByteBuffer.B
func (b *bbpByteBuffer) Write(p []byte) (int, error) {
	b.B = append(b.B, p...)
	return len(p), nil
}

// Reset makes ByteBuffer.B empty.
func (b *bbpByteBuffer) Reset() {
	b.B = b.B[:0]
}

func bbpAcquireByteBuffer() *bbpByteBuffer {
	return defaultByteBufferPool.Acquire()
}

func bbpReleaseByteBuffer(b *bbpByteBuffer) {
	defaultByteBufferPool.Release(b)
}

const (
	minBitSize = 8
	steps      = 20

	minSize = 1 << minBitSize
	maxSize = 1 << (minBitSize + steps - 1)
)

var defaultByteBufferPool byteBufferPool

type byteBufferPool struct {
	// Pools are segemented into power-of-two sized buffers
	// from minSize bytes to maxSize.
	//
	// This allows reducing fragmentation of ByteBuffer objects.
	pools [steps]sync.Pool
}

func (p *byteBufferPool) Acquire() *bbpByteBuffer {
	pools := &p.pools
	for i := 0; i < steps; i++ {
		v := pools[i].Get()
		if v != nil {
			return v.(*bbpByteBuffer)
		}
	}

	return &bbpByteBuffer{
		B: make([]byte, 0, minSize),
	}
}

func (p *byteBufferPool) Release(b *bbpByteBuffer) {
	n := cap(b.B)
	if n > maxSize {
		// Just drop oversized buffers.
		return
	}
	b.B = b.B[:0]
	idx := bitsize(n-1) >> minBitSize
	p.pools[idx].Put(b)
}

func bitsize(n int) int {
	s := 0
	for n > 0 {
		n >>= 1
		s++
	}
	return s
}

// ---- quicktemplate ----

// ByteBuffer implements io.Writer on top of byte slice.
//
// Recycle byte buffers via AcquireByteBuffer and ReleaseByteBuffer
// in order to reduce memory allocations.
type ByteBuffer bbpByteBuffer

// Write implements io.Writer.
func (b *ByteBuffer) Write(p []byte) (int, error) {
	return bb(b).Write(p)
}

// Reset resets the byte buffer.
func (b *ByteBuffer) Reset() {
	bb(b).Reset()
}

// AcquireByteBuffer returns new ByteBuffer from the pool.
//
// Return unneeded buffers to the pool by calling ReleaseByteBuffer
// in order to reduce memory allocations.
func AcquireByteBuffer() *ByteBuffer {
	return (*ByteBuffer)(bbpAcquireByteBuffer())
}

// ReleaseByteBuffer retruns byte buffer to the pool.
//
// Do not access byte buffer after returning it to the pool,
// otherwise data races may occur.
func ReleaseByteBuffer(b *ByteBuffer) {
	bbpReleaseByteBuffer(bb(b))
}

func bb(b *ByteBuffer) *bbpByteBuffer {
	return (*bbpByteBuffer)(b)
}

// ---- shape of the code quicktemplate generates for a template ----

type ErrorPage struct {
	Path    []byte
	Message string
}

func (p *ErrorPage) WriteBody(w io.Writer) {
	io.WriteString(w, "<h1>Error page</h1><div>Path: ")
	w.Write(p.Path)
	io.WriteString(w, "</div><div>Message: ")
	io.WriteString(w, p.Message)
	io.WriteString(w, "</div>")
}

func (p *ErrorPage) Body() string {
	qb422016 := AcquireByteBuffer()
	p.WriteBody(qb422016)
	qs422016 := string(qb422016.B)
	ReleaseByteBuffer(qb422016)
	return qs422016
}
