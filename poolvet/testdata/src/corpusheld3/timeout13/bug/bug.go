// Package bug reproduces the shape of gin-contrib/timeout#13
// (https://github.com/gin-contrib/timeout/pull/13, fixing issue #7,
// https://github.com/gin-contrib/timeout/issues/7): the timeout middleware
// buffered each response in a *bytes.Buffer from its BufferPool and gave the
// buffer back with the response still in it. The next request appended to it,
// so clients saw the previous response glued in front of their own.
//
// Check: noreset (a *bytes.Buffer taken through a Get wrapper and put back
// through a Put wrapper without a Reset anywhere). The Put wrapper keeps a
// size guard here (not in the original) so that only the missing Reset is
// wrong; the report belongs at the wrapper Put in the handler.
package bug

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

// FreeBuffer drops the writer's reference to the buffer.
func (tw *Writer) FreeBuffer() {
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
	bufPool.Put(buffer) // want `noreset`
}
