// Package bug reproduces the shape of golang/go#20704
// (https://github.com/golang/go/issues/20704): in the HTTP/2 server,
// handlerDone put the responseWriterState into its sync.Pool while a frame
// write handed to the serve goroutine (over a channel) could still be
// reading the state's buffered writer; the handler's next writes raced
// with that asynchronous read.
//
// Check: useafterput (a channel hand-off followed by a Put with nothing
// that waits for the receiver).
package bug

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
	w.sc.wantWriteFrameCh <- writeData{rws: rws, endStream: true}
	w.rws = nil
	rws.body.Reset()
	responseWriterStatePool.Put(rws) // want `may still use|handed to|used after|useafterput`
}
