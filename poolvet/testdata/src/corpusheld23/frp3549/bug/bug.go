// Package bug reproduces the shape of fatedier/frp#3549 (https://github.com/fatedier/frp/commit/fcdcc4c2a5c73a83b0c530470f3457a31ead6a8d):
// "fix incorrect use of snappy pool". With compression on, the UDP proxy's InWorkConn wrapped the work
// connection in a compressing reader/writer taken from a pool and deferred the recycle function that puts
// them back. But InWorkConn only starts the sender/reader goroutines and the forwarder and then returns, so
// the deferred recycle hands the pooled reader and writer back while those goroutines still read from and
// write through them; another connection then gets the same reader/writer and requests fail. The fix
// stopped using the pooled variant on the UDP paths (a plain, unpooled compression wrapper).
// Check: useafterput (the pooled reader/writer escape into goroutines that outlive the deferred recycle;
// reported at the hand-off of the wrapped connection to the first goroutine).
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

func (pxy *udpProxy) InWorkConn(conn io.ReadWriteCloser) {
	var rwc io.ReadWriteCloser = conn
	if pxy.useCompression {
		var releaseFn func()
		rwc, releaseFn = withCompressionFromPool(rwc)
		defer releaseFn()
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

	go workConnSenderFn(pxy.workConn, pxy.sendCh) // want `useafterput`
	go workConnReaderFn(pxy.workConn, pxy.readCh)
	forwarder(pxy.readCh, pxy.sendCh)
}
