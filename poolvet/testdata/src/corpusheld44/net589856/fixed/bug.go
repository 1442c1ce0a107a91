// Package bug reproduces the shape of golang/net CL 589856
// (https://go-review.googlesource.com/c/net/+/589856, commit
// 6249541f2a6c4cff317a4502d93dd287c5fb0c51, "http2: avoid race in server
// handler SetReadDeadine/SetWriteDeadline"): the handler's SetReadDeadline
// queues a closure that the connection's serve loop runs later. The closure
// reached the clock through w.rws, the per-response state that the server
// recycles through a sync.Pool when the handler returns. By the time the serve
// loop runs it, handlerDone may already have put rws back (and another
// request may own it). The fix takes the clock from the serverConn instead.
// Check: useafterput. Fixed twin: the queued closure uses the serverConn it is
// handed, never the pooled response state.
package bug

import (
	"sync"
	"time"
)

type Server struct{}

func (s *Server) now() time.Time { return time.Now() }

type serverConn struct {
	srv        *Server
	serveMsgCh chan func(*serverConn)
}

// sendServeMsg queues f to run on the serve loop; it does not wait for it.
func (sc *serverConn) sendServeMsg(f func(*serverConn)) {
	sc.serveMsgCh <- f
}

func (sc *serverConn) serve() {
	for f := range sc.serveMsgCh {
		f(sc)
	}
}

type stream struct {
	sc           *serverConn
	readDeadline *time.Timer
}

func (st *stream) onReadTimeout() {}

type responseWriterState struct {
	stream *stream
	conn   *serverConn

	handlerDone bool
}

type responseWriter struct {
	rws *responseWriterState
}

var responseWriterStatePool = sync.Pool{
	New: func() interface{} { return new(responseWriterState) },
}

func newWriter(sc *serverConn, st *stream) *responseWriter {
	rws := responseWriterStatePool.Get().(*responseWriterState)
	*rws = responseWriterState{}
	rws.conn = sc
	rws.stream = st
	return &responseWriter{rws: rws}
}

// SetReadDeadline arms or moves the stream's read deadline.
func (w *responseWriter) SetReadDeadline(deadline time.Time) error {
	st := w.rws.stream
	if !deadline.IsZero() && deadline.Before(time.Now()) {
		st.onReadTimeout()
		return nil
	}
	w.rws.conn.sendServeMsg(func(sc *serverConn) {
		if deadline.IsZero() {
			st.readDeadline = nil
		} else if st.readDeadline == nil {
			st.readDeadline = time.AfterFunc(deadline.Sub(sc.srv.now()), st.onReadTimeout)
		} else {
			st.readDeadline.Reset(deadline.Sub(sc.srv.now()))
		}
	})
	return nil
}

func (w *responseWriter) handlerDone() {
	rws := w.rws
	rws.handlerDone = true
	w.rws = nil
	responseWriterStatePool.Put(rws)
}

func (sc *serverConn) runHandler(st *stream, handler func(*responseWriter)) {
	rw := newWriter(sc, st)
	defer rw.handlerDone()
	handler(rw)
}

// Serve runs one handler that sets a read deadline and returns.
func Serve() {
	sc := &serverConn{srv: &Server{}, serveMsgCh: make(chan func(*serverConn), 8)}
	st := &stream{sc: sc}
	sc.runHandler(st, func(w *responseWriter) {
		_ = w.SetReadDeadline(time.Now().Add(time.Hour))
	})
	close(sc.serveMsgCh)
	sc.serve()
}
