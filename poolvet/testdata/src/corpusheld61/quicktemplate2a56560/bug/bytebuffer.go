// Source: https://github.com/valyala/quicktemplate/commit/2a56560d0070f1b67193d7681271e420278efac8
// ("Use github.com/valyala/bytebufferpool, since it should protect from
// memory fragmentation related to differently-sized buffers in concurrent
// use"); bytebufferpool as of its initial implementation,
// https://github.com/valyala/bytebufferpool/commit/21bf76e (pool.go).
//
// Bug: quicktemplate recycled its ByteBuffers (used by the generated
// template code to render a template into a string) through a plain
// sync.Pool. ReleaseByteBuffer only truncated B and put the buffer back
// whatever its capacity, so a single huge render kept a huge backing array
// alive in the pool and handed it to every later small render.
// Fix: ByteBuffer became bytebufferpool.ByteBuffer and Acquire/Release were
// delegated to bytebufferpool, whose Release drops buffers above maxSize
// ("Just drop oversized buffers.") and segments the rest by size.
//
// Check: unbounded (ReleaseByteBuffer puts a buffer of any capacity back
// into byteBufferPool; the report is expected at that Put)
package bug

import (
	"io"
	"sync"
)

// ByteBuffer implements io.Writer on top of byte slice.
//
// Recycle byte buffers via AcquireByteBuffer and ReleaseByteBuffer
// in order to reduce memory allocations.
type ByteBuffer struct {
	// B is a byte slice backing byte buffer.
	// All the data written via Write is appended here.
	B []byte
}

// Write implements io.Writer.
func (bb *ByteBuffer) Write(p []byte) (int, error) {
	bb.B = append(bb.B, p...)
	return len(p), nil
}

// Reset resets the byte buffer.
func (bb *ByteBuffer) Reset() {
	bb.B = bb.B[:0]
}

// AcquireByteBuffer returns new ByteBuffer from the pool.
//
// Return unneeded buffers to the pool by calling ReleaseByteBuffer
// in order to reduce memory allocations.
func AcquireByteBuffer() *ByteBuffer {
	v := byteBufferPool.Get()
	if v == nil {
		return &ByteBuffer{}
	}
	return v.(*ByteBuffer)
}

// ReleaseByteBuffer retruns byte buffer to the pool.
//
// Do not access byte buffer after returning it to the pool,
// otherwise data races may occur.
func ReleaseByteBuffer(bb *ByteBuffer) {
	bb.Reset()
	byteBufferPool.Put(bb) // want `unbounded`
}

var byteBufferPool sync.Pool

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
