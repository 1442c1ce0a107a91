// Package bug reproduces the shape of unrolled/render#85
// (https://github.com/unrolled/render/issues/85, fixed by
// https://github.com/unrolled/render/pull/87): HTML templates are executed
// into a bytes.Buffer taken from a package-wide BufferPool (a bounded channel
// of 64 buffers, taken from oxtoacart/bpool). Put only Resets the buffer,
// which keeps its capacity, so in a long-running server the pool ends up
// holding ~64 times the largest page ever rendered (hundreds of MiB in Gitea).
// The fix added a sized pool whose Put replaces any buffer that grew past the
// allocation size instead of keeping it.
//
// Check: unbounded. Fixed twin: the project's fix, Put replaces a buffer that
// grew past the allocation size with a fresh pre-sized one.
package bug

import (
	"bytes"
	"html/template"
	"io"
	"net/http"
)

// bufPool represents a reusable buffer pool for executing templates into.
var bufPool *BufferPool

// BufferPool implements a pool of bytes.Buffers in the form of a bounded
// channel. Buffers are pre-allocated to the requested size.
type BufferPool struct {
	c chan *bytes.Buffer
	a int
}

// NewBufferPool creates a new BufferPool bounded to the given size; alloc
// sets the capacity of new buffers and the largest capacity kept.
func NewBufferPool(size int, alloc int) (bp *BufferPool) {
	return &BufferPool{
		c: make(chan *bytes.Buffer, size),
		a: alloc,
	}
}

// Get gets a Buffer from the BufferPool, or creates a new one if none are
// available in the pool.
func (bp *BufferPool) Get() (b *bytes.Buffer) {
	select {
	case b = <-bp.c:
	// reuse existing buffer
	default:
		// create new buffer
		b = bytes.NewBuffer(make([]byte, 0, bp.a))
	}
	return
}

// Put returns the given Buffer to the BufferPool.
func (bp *BufferPool) Put(b *bytes.Buffer) {
	b.Reset()

	// Release buffers over our maximum capacity and re-create a pre-sized
	// buffer to replace it.
	if b.Cap() > bp.a {
		b = bytes.NewBuffer(make([]byte, 0, bp.a))
	}

	select {
	case bp.c <- b:
	default: // Discard the buffer if the pool is full.
	}
}

// Initialize buffer pool for writing templates into.
func init() {
	bufPool = NewBufferPool(32, 1<<19)
}

// Head defines the basic ContentType and Status fields.
type Head struct {
	ContentType string
	Status      int
}

// Write outputs the header content.
func (h Head) Write(w http.ResponseWriter) {
	w.Header().Set("Content-Type", h.ContentType)
	w.WriteHeader(h.Status)
}

// HTML built-in renderer.
type HTML struct {
	Head
	Name      string
	Templates *template.Template
}

// Render a HTML response.
func (h HTML) Render(w io.Writer, binding interface{}) error {
	// Retrieve a buffer from the pool to write to.
	out := bufPool.Get()
	err := h.Templates.ExecuteTemplate(out, h.Name, binding)
	if err != nil {
		return err
	}

	if hw, ok := w.(http.ResponseWriter); ok {
		h.Head.Write(hw)
	}
	out.WriteTo(w)

	// Return the buffer to the pool.
	bufPool.Put(out)
	return nil
}
