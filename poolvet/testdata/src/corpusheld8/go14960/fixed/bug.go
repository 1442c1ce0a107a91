// Package fixed is the fixed twin of golang/go#14960
// (https://github.com/golang/go/issues/14960): x/net/http2 started reusing
// the 64 KiB request-body buffers through a pool. The server loop writes
// DATA frames into a buffer that the handler goroutine reads as the request
// body, and put the buffer back when the stream ended; the handler could
// still be reading it, so the race detector saw the handler's Read racing
// with a Write into the same buffer for the next stream.
//
// Fix (the obvious one): the buffer goes back only after the handler has
// returned, signalled by closing a channel the loop receives from.
package fixed

import (
	"errors"
	"io"
	"sync"
)

const bodyBufSize = 64 << 10

var bodyBufPool = sync.Pool{New: func() any { b := make([]byte, bodyBufSize); return &b }}

// fixedBuffer is a ring of fixed capacity used as the request body.
type fixedBuffer struct {
	buf  []byte
	r, w int
}

func (b *fixedBuffer) Read(p []byte) (int, error) {
	n := copy(p, b.buf[b.r:b.w])
	b.r += n
	return n, nil
}

func (b *fixedBuffer) Write(p []byte) (int, error) {
	if b.r == b.w {
		b.r, b.w = 0, 0
	}
	n := copy(b.buf[b.w:], p)
	b.w += n
	if n < len(p) {
		return n, errors.New("http2: body buffer full")
	}
	return n, nil
}

// pipe guards the buffer with a mutex; the handler reads it, the connection
// loop writes it.
type pipe struct {
	mu  sync.Mutex
	b   *fixedBuffer
	err error
}

func (p *pipe) Read(d []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.b.r == p.b.w && p.err != nil {
		return 0, p.err
	}
	return p.b.Read(d)
}

func (p *pipe) Write(d []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.b.Write(d)
}

func (p *pipe) closeWithError(err error) {
	p.mu.Lock()
	p.err = err
	p.mu.Unlock()
}

type frame struct {
	data      []byte
	endStream bool
}

type serverConn struct {
	readFrame func() (frame, error)
}

// serveStream runs one request: the handler reads the body while the loop
// feeds DATA frames into it.
func (sc *serverConn) serveStream(handler func(body io.Reader)) {
	bufp := bodyBufPool.Get().(*[]byte)
	body := &pipe{b: &fixedBuffer{buf: *bufp}}

	handlerDone := make(chan struct{})
	go func() {
		defer close(handlerDone)
		handler(body)
	}()

	for {
		f, err := sc.readFrame()
		if err != nil {
			body.closeWithError(err)
			break
		}
		if _, err := body.Write(f.data); err != nil {
			body.closeWithError(err)
			break
		}
		if f.endStream {
			body.closeWithError(io.EOF)
			break
		}
	}

	// The stream is closed; wait until the handler is done with the body
	// before recycling its buffer.
	<-handlerDone
	if cap(*bufp) <= bodyBufSize {
		bodyBufPool.Put(bufp)
	}
}
