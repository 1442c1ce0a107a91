// Package bug reproduces the shape of golang/go#13089
// (https://github.com/golang/go/issues/13089, fixed in golang/net c95266fa):
// the HTTP/2 server pools responseWriterState values. To avoid an allocation
// per Write, writeChunk reused a writeData embedded in the state (curWrite) and
// handed a pointer to it to the serve goroutine's frame scheduler. When the
// stream was closed, writeDataFromHandler returned errStreamClosed without
// waiting for the queued frame, and handlerDone then put the state back into
// responseWriterStatePool while the scheduler still held &rws.curWrite. The
// next handler that got the state overwrote curWrite under the scheduler. The
// fix drops the embedded field and takes a separate writeData from its own pool,
// returning it only once the frame write is known to be done.
// Check: useafterput (handlerDone puts rws back while the frame scheduler still
// references its interior field curWrite).
package bug

import (
	"errors"
	"io"
	"sync"
)

var (
	errClientDisconnected = errors.New("client disconnected")
	errStreamClosed       = errors.New("http2: stream closed")
)

type writeData struct {
	streamID  uint32
	p         []byte
	endStream bool
}

func (w *writeData) writeFrame(out io.Writer) error {
	_, err := out.Write(w.p)
	return err
}

type frameWriteMsg struct {
	write  *writeData
	stream *stream
	done   chan error
}

type stream struct {
	id uint32
	cw chan struct{} // closed when the stream is closed
}

type serverConn struct {
	conn             io.Writer
	wantWriteFrameCh chan frameWriteMsg
	doneServing      chan struct{}
}

// serve runs on its own goroutine and writes the queued frames.
func (sc *serverConn) serve() {
	for {
		select {
		case wm := <-sc.wantWriteFrameCh:
			err := wm.write.writeFrame(sc.conn)
			wm.done <- err
		case <-sc.doneServing:
			return
		}
	}
}

var errChanPool = sync.Pool{
	New: func() interface{} { return make(chan error, 1) },
}

func (sc *serverConn) writeFrameFromHandler(wm frameWriteMsg) error {
	select {
	case sc.wantWriteFrameCh <- wm:
		return nil
	case <-sc.doneServing:
		return errClientDisconnected
	}
}

func (sc *serverConn) writeDataFromHandler(st *stream, wd *writeData) error {
	ch := errChanPool.Get().(chan error)
	err := sc.writeFrameFromHandler(frameWriteMsg{write: wd, stream: st, done: ch})
	if err != nil {
		return err
	}
	select {
	case err = <-ch:
	case <-sc.doneServing:
		return errClientDisconnected
	case <-st.cw:
		select {
		case err = <-ch:
		default:
			return errStreamClosed
		}
	}
	errChanPool.Put(ch)
	return err
}

type responseWriterState struct {
	stream      *stream
	conn        *serverConn
	handlerDone bool
	curWrite    writeData
}

var responseWriterStatePool = sync.Pool{
	New: func() interface{} { return new(responseWriterState) },
}

// writeChunk sends p as a DATA frame, reusing curWrite to avoid allocating.
func (rws *responseWriterState) writeChunk(p []byte) (int, error) {
	curWrite := &rws.curWrite
	curWrite.streamID = rws.stream.id
	curWrite.p = p
	curWrite.endStream = rws.handlerDone
	if err := rws.conn.writeDataFromHandler(rws.stream, curWrite); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (rws *responseWriterState) reset() {
	*rws = responseWriterState{} // zero all the fields
}

type responseWriter struct {
	rws *responseWriterState
}

func (sc *serverConn) newWriterAndRequest(st *stream) *responseWriter {
	rws := responseWriterStatePool.Get().(*responseWriterState)
	rws.reset()
	rws.conn = sc
	rws.stream = st
	return &responseWriter{rws: rws}
}

func (w *responseWriter) Write(p []byte) (int, error) { return w.rws.writeChunk(p) }

// Flush sends an empty DATA frame (with END_STREAM once the handler is done).
func (w *responseWriter) Flush() {
	_, _ = w.rws.writeChunk(nil)
}

func (w *responseWriter) handlerDone() {
	rws := w.rws
	if rws == nil {
		panic("handlerDone called twice")
	}
	rws.handlerDone = true
	w.Flush()
	w.rws = nil
	rws.reset()
	responseWriterStatePool.Put(rws) // want `useafterput`
}

// runHandler runs h for one stream.
func (sc *serverConn) runHandler(st *stream, h func(w *responseWriter)) {
	rw := sc.newWriterAndRequest(st)
	defer rw.handlerDone()
	h(rw)
}
