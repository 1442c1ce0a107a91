// Package bug reproduces the shape of darkweak/souin commit cae09ad1
// (https://github.com/darkweak/souin/commit/cae09ad185843e247d8328a3d85caa79af7f4752):
// the caching middleware's ServeHTTP takes a *bytes.Buffer from the handler's
// pool, defers its return to the pool, wraps it in a CustomWriter and starts a
// goroutine that runs the upstream call writing into that writer. When the
// request context is cancelled first, ServeHTTP returns, the deferred Put hands
// the buffer back to the pool, and the still-running goroutine keeps writing
// into a buffer that another request may already own (corrupted, doubled bodies).
// The fix hands ownership to the goroutine and only puts the buffer back once
// the goroutine's result has been received.
// Check: useafterput (the buffer, through the writer, is handed to a goroutine
// that outlives the deferred Put; report at the hand-off to the goroutine).
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
	defer s.putBuffer(buf)

	cw := newCustomWriter(req, rw, buf)

	errorCacheCh := make(chan error, 1)
	go func(vr *http.Request, w *customWriter) { // want `useafterput`
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
		if v == nil || errors.Is(v, errUpstream50x) {
			_, _ = cw.Send()
		}
		return v
	}
}

var errUpstream50x = errors.New("upstream 50x")
