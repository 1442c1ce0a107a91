// Package bug reproduces the shape of golang/go#17868
// (https://github.com/golang/go/issues/17868, fixed in golang/net commit
// 9ef22118a4b25863aa94546daffbc0a18feaafb3, CL 33013): the HTTP/2 server keeps
// per-response state in a sync.Pool and recycles it when the handler
// returns. CloseNotify started a goroutine that dereferenced the pooled state
// (rws.stream.cw) only when it got scheduled, which can be after handlerDone
// has put the state back and another request has taken and rewritten it.
// Check: useafterput (the pooled state is read by the goroutine after the
// deferred handlerDone put it back; report at the read inside the goroutine).
package bug

import "sync"

type closeWaiter chan struct{}

func (cw closeWaiter) Close() { close(cw) }

func (cw closeWaiter) Wait() { <-cw }

type stream struct {
	id uint32
	cw closeWaiter
}

type responseWriterState struct {
	stream *stream

	handlerDone bool

	closeNotifierMu sync.Mutex
	closeNotifierCh chan bool
}

type responseWriter struct {
	rws *responseWriterState
}

var responseWriterStatePool = sync.Pool{
	New: func() interface{} { return new(responseWriterState) },
}

func newWriter(st *stream) *responseWriter {
	rws := responseWriterStatePool.Get().(*responseWriterState)
	*rws = responseWriterState{}
	rws.stream = st
	return &responseWriter{rws: rws}
}

// CloseNotify returns a channel that receives a value when the stream closes.
func (w *responseWriter) CloseNotify() <-chan bool {
	rws := w.rws
	if rws == nil {
		panic("CloseNotify called after Handler finished")
	}
	rws.closeNotifierMu.Lock()
	ch := rws.closeNotifierCh
	if ch == nil {
		ch = make(chan bool, 1)
		rws.closeNotifierCh = ch
		go func() {
			rws.stream.cw.Wait() // want `useafterput`
			ch <- true
		}()
	}
	rws.closeNotifierMu.Unlock()
	return ch
}

func (w *responseWriter) handlerDone() {
	rws := w.rws
	rws.handlerDone = true
	w.rws = nil
	responseWriterStatePool.Put(rws)
}

func runHandler(st *stream, handler func(*responseWriter)) {
	rw := newWriter(st)
	defer rw.handlerDone()
	handler(rw)
}

// Serve runs a handler that asks for close notification and returns at once.
func Serve(id uint32) {
	st := &stream{id: id, cw: make(closeWaiter)}
	runHandler(st, func(w *responseWriter) {
		_ = w.CloseNotify()
	})
	st.cw.Close()
}
