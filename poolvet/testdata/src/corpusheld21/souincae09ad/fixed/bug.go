// Package bug is the fixed twin of darkweak/souin commit cae09ad1
// (https://github.com/darkweak/souin/commit/cae09ad185843e247d8328a3d85caa79af7f4752):
// once the buffer has been handed to the upstream goroutine, ServeHTTP no
// longer returns it to the pool on exit; it is put back only after the
// goroutine's result has been received, i.e. when nobody writes to it any more.
// Check: useafterput (clean).
package bug

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"sync"
)

const maxPooledBuffer = 1 << 20

type customWriter struct {
	Buf        *bytes.Buffer
	Rw         http.ResponseWriter
	Req        *http.Request
	mutex      sync.Mutex
	statusCode int
}

func newCustomWriter(rq *http.Request, rw http.ResponseWriter, b *bytes.Buffer) *customWriter {
	return &customWriter{Buf: b, Req: rq, Rw: rw, statusCode: http.StatusOK}
}

func (r *customWriter) handleBuffer(cb func(*bytes.Buffer)) {
	r.mutex.Lock()
	cb(r.Buf)
	r.mutex.Unlock()
}

func (r *customWriter) Header() http.Header { return r.Rw.Header() }

func (r *customWriter) WriteHeader(code int) {
	r.mutex.Lock()
	r.statusCode = code
	r.mutex.Unlock()
}

func (r *customWriter) Write(b []byte) (int, error) {
	r.handleBuffer(func(actual *bytes.Buffer) {
		actual.Grow(len(b))
		_, _ = actual.Write(b)
	})
	return len(b), nil
}

// Send flushes the buffered body to the client and clears the buffer.
func (r *customWriter) Send() (int, error) {
	defer r.handleBuffer(func(b *bytes.Buffer) { b.Reset() })
	r.Rw.WriteHeader(r.statusCode)
	return r.Rw.Write(r.Buf.Bytes())
}

type baseHandler struct {
	bufPool *sync.Pool
}

func newBaseHandler() *baseHandler {
	return &baseHandler{bufPool: &sync.Pool{New: func() any { return new(bytes.Buffer) }}}
}

func (s *baseHandler) putBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuffer {
		return
	}
	b.Reset()
	s.bufPool.Put(b)
}

// upstream runs the next handler, which writes the response into cw.
func (s *baseHandler) upstream(cw *customWriter, rq *http.Request, next http.HandlerFunc) error {
	next(cw, rq)
	return nil
}

func (s *baseHandler) ServeHTTP(rw http.ResponseWriter, req *http.Request, next http.HandlerFunc) error {
	buf := s.bufPool.Get().(*bytes.Buffer)
	buf.Reset()

	cw := newCustomWriter(req, rw, buf)

	// Ownership of buf moves to the goroutine: if the request is cancelled
	// the goroutine may still be writing, so the buffer is simply dropped.
	errorCacheCh := make(chan error, 1)
	go func(vr *http.Request, w *customWriter) {
		errorCacheCh <- s.upstream(w, vr, next)
	}(req, cw)

	select {
	case <-req.Context().Done():
		switch req.Context().Err() {
		case context.DeadlineExceeded:
			cw.Rw.WriteHeader(http.StatusGatewayTimeout)
			_, _ = cw.Rw.Write([]byte("Internal server error"))
			return context.DeadlineExceeded
		case context.Canceled:
			return context.Canceled
		default:
			return nil
		}
	case v := <-errorCacheCh:
		// The goroutine has finished: the buffer is ours again.
		if v == nil || errors.Is(v, errUpstream50x) {
			_, _ = cw.Send()
		}
		s.putBuffer(buf)
		return v
	}
}

var errUpstream50x = errors.New("upstream 50x")
