// Package fixed is a fixed twin of golang/go#20704
// (https://github.com/golang/go/issues/20704): the frame write reports
// completion, and the state goes back to the pool only after it. (The
// capacity guard on body keeps the twin clean of unbounded.)
package fixed

import (
	"bufio"
	"bytes"
	"sync"
)

type responseWriterState struct {
	body bytes.Buffer
	bw   *bufio.Writer
}

var responseWriterStatePool = sync.Pool{New: func() any {
	rws := &responseWriterState{}
	rws.bw = bufio.NewWriterSize(&rws.body, 4096)
	return rws
}}

type writeData struct {
	rws       *responseWriterState
	endStream bool
	done      chan struct{}
}

type serverConn struct {
	wantWriteFrameCh chan writeData
}

type responseWriter struct {
	sc  *serverConn
	rws *responseWriterState
}

func (w *responseWriter) handlerDone() {
	rws := w.rws
	done := make(chan struct{})
	w.sc.wantWriteFrameCh <- writeData{rws: rws, endStream: true, done: done}
	<-done
	w.rws = nil
	if rws.body.Cap() > 64<<10 {
		return
	}
	rws.body.Reset()
	responseWriterStatePool.Put(rws)
}
