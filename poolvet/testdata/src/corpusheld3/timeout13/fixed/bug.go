// Package fixed is gin-contrib/timeout#13 with the project's fix:
// FreeBuffer resets the buffer before the middleware puts it back.
package fixed

import (
	"bytes"
	"net/http"
	"sync"
)

const maxPooled = 64 << 10

// BufferPool hands out response buffers.
type BufferPool struct {
	pool sync.Pool
}

func (p *BufferPool) Get() *bytes.Buffer {
	v := p.pool.Get()
	if v == nil {
		return &bytes.Buffer{}
	}
	return v.(*bytes.Buffer)
}

func (p *BufferPool) Put(buf *bytes.Buffer) {
	if buf.Cap() > maxPooled {
		return
	}
	p.pool.Put(buf)
}

var bufPool = &BufferPool{}

// Writer collects what the inner handler writes.
type Writer struct {
	w      http.ResponseWriter
	body   *bytes.Buffer
	header http.Header
	code   int
}

func (tw *Writer) Header() http.Header  { return tw.header }
func (tw *Writer) WriteHeader(code int) { tw.code = code }
func (tw *Writer) Write(p []byte) (int, error) {
	if tw.body == nil {
		return 0, nil
	}
	return tw.body.Write(p)
}

// FreeBuffer empties the buffer and drops the writer's reference to it, so
// that old bytes never go back into the pool.
func (tw *Writer) FreeBuffer() {
	tw.body.Reset()
	tw.body = nil
}

type Timeout struct {
	handler http.HandlerFunc
}

func (t *Timeout) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	buffer := bufPool.Get()
	tw := &Writer{w: w, body: buffer, header: make(http.Header), code: http.StatusOK}
	t.handler(tw, r)

	dst := w.Header()
	for k, vv := range tw.header {
		dst[k] = vv
	}
	w.WriteHeader(tw.code)
	w.Write(buffer.Bytes())
	tw.FreeBuffer()
	bufPool.Put(buffer)
}
