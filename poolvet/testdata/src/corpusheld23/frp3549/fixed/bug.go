// Package bug is the fixed twin of fatedier/frp#3549 (https://github.com/fatedier/frp/commit/fcdcc4c2a5c73a83b0c530470f3457a31ead6a8d):
// the UDP proxy's work connection outlives InWorkConn (goroutines keep using it), so it is wrapped with an
// unpooled compressing reader/writer instead of the pooled one whose recycle was deferred.
// Check: useafterput (none expected here).
package bug

import (
	"bufio"
	"io"
	"sync"
)

var (
	readerPool = sync.Pool{New: func() interface{} { return bufio.NewReaderSize(nil, 4096) }}
	writerPool = sync.Pool{New: func() interface{} { return bufio.NewWriterSize(nil, 4096) }}
)

type readWriteCloser struct {
	io.Reader
	io.Writer
	closeFn func() error
}

func (rwc *readWriteCloser) Close() error { return rwc.closeFn() }

// withCompressionFromPool wraps rwc with a pooled reader and writer; recycle puts them back.
// Only callers that finish with the connection before returning may use it.
func withCompressionFromPool(rwc io.ReadWriteCloser) (io.ReadWriteCloser, func()) {
	sr := readerPool.Get().(*bufio.Reader)
	sr.Reset(rwc)
	sw := writerPool.Get().(*bufio.Writer)
	sw.Reset(rwc)
	out := &readWriteCloser{Reader: sr, Writer: sw, closeFn: rwc.Close}
	recycle := func() {
		sr.Reset(nil)
		readerPool.Put(sr)
		sw.Reset(nil)
		writerPool.Put(sw)
	}
	return out, recycle
}

// withCompression wraps rwc with a reader and writer of its own.
func withCompression(rwc io.ReadWriteCloser) io.ReadWriteCloser {
	return &readWriteCloser{Reader: bufio.NewReaderSize(rwc, 4096), Writer: bufio.NewWriterSize(rwc, 4096), closeFn: rwc.Close}
}

type udpPacket struct{ content []byte }

type udpProxy struct {
	mu             sync.Mutex
	workConn       io.ReadWriteCloser
	readCh         chan *udpPacket
	sendCh         chan *udpPacket
	useCompression bool
}

func readMsg(r io.Reader) (*udpPacket, error) {
	buf := make([]byte, 512)
	n, err := r.Read(buf)
	if err != nil {
		return nil, err
	}
	return &udpPacket{content: buf[:n]}, nil
}

// forwarder starts its own goroutine and returns at once.
func forwarder(readCh <-chan *udpPacket, sendCh chan<- *udpPacket) {
	go func() {
		for m := range readCh {
			sendCh <- m
		}
	}()
}

// handleVisitorConn uses the pooled variant correctly: it is done with remote before it returns.
func handleVisitorConn(user io.ReadWriter, remote io.ReadWriteCloser) {
	remote, recycleFn := withCompressionFromPool(remote)
	defer recycleFn()
	_, _ = io.Copy(remote, user)
}

func (pxy *udpProxy) InWorkConn(conn io.ReadWriteCloser) {
	var rwc io.ReadWriteCloser = conn
	if pxy.useCompression {
		rwc = withCompression(rwc)
	}

	pxy.mu.Lock()
	pxy.workConn = rwc
	pxy.readCh = make(chan *udpPacket, 1024)
	pxy.sendCh = make(chan *udpPacket, 1024)
	pxy.mu.Unlock()

	workConnReaderFn := func(conn io.ReadWriteCloser, readCh chan *udpPacket) {
		for {
			m, err := readMsg(conn)
			if err != nil {
				return
			}
			readCh <- m
		}
	}
	workConnSenderFn := func(conn io.ReadWriteCloser, sendCh chan *udpPacket) {
		for m := range sendCh {
			if _, err := conn.Write(m.content); err != nil {
				return
			}
		}
	}

	go workConnSenderFn(pxy.workConn, pxy.sendCh)
	go workConnReaderFn(pxy.workConn, pxy.readCh)
	forwarder(pxy.readCh, pxy.sendCh)
}
