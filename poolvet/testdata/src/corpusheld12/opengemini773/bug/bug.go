// Package bug reproduces the shape of openGemini/openGemini#773
// (https://github.com/openGemini/openGemini/pull/773, fixes #765): the write
// path kept the request body in a pooled work struct and also forwarded it to
// the data-subscription writers, which queue it on a buffered channel and
// send it later from their own goroutines. The work struct was recycled as
// soon as the local write finished, so subscribers forwarded bytes that the
// next write request had already overwritten.
//
// Check: useafterput (hand-off: the body is sent on a channel through
// SubscriberManager.Send -> Write -> BaseWriter.Send, nothing waits for the
// consumer, then the struct that owns it goes back to the pool; reported at
// the Put).
package bug

import (
	"io"
	"sync"
)

type WriteRequest struct {
	Client       int
	LineProtocol []byte
}

type BaseWriter struct {
	ch      chan WriteRequest
	clients []func(lp []byte) error
}

func (w *BaseWriter) Send(wr WriteRequest) {
	select {
	case w.ch <- wr:
	default:
		// buffer full: drop the request
	}
}

func (w *BaseWriter) Run() {
	for wr := range w.ch {
		_ = w.clients[wr.Client](wr.LineProtocol)
	}
}

func (w *BaseWriter) Start(concurrency, size int) {
	w.ch = make(chan WriteRequest, size)
	for i := 0; i < concurrency; i++ {
		go w.Run()
	}
}

type AllWriter struct {
	BaseWriter
}

func (w *AllWriter) Write(lineProtocol []byte) {
	for i := range w.clients {
		w.Send(WriteRequest{Client: i, LineProtocol: lineProtocol})
	}
}

type SubscriberManager struct {
	writers map[string]map[string][]*AllWriter
}

func (s *SubscriberManager) Send(db, rp string, lineProtocol []byte) {
	for _, w := range s.writers[db][rp] {
		w.Write(lineProtocol)
	}
}

const maxPooledBody = 1 << 20

type unmarshalWork struct {
	reqBuf []byte
}

var uwPool = sync.Pool{New: func() any { return &unmarshalWork{} }}

func getUnmarshalWork() *unmarshalWork {
	return uwPool.Get().(*unmarshalWork)
}

func putUnmarshalWork(uw *unmarshalWork) {
	if cap(uw.reqBuf) > maxPooledBody {
		return
	}
	uw.reqBuf = uw.reqBuf[:0]
	uwPool.Put(uw)
}

type Handler struct {
	SubscriberManager *SubscriberManager
	store             func(db, rp string, lp []byte) error
}

func readBody(dst []byte, r io.Reader) ([]byte, error) {
	var chunk [4096]byte
	for {
		n, err := r.Read(chunk[:])
		dst = append(dst, chunk[:n]...)
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}

func (h *Handler) serveWrite(db, rp string, body io.Reader) error {
	uw := getUnmarshalWork()
	var err error
	uw.reqBuf, err = readBody(uw.reqBuf[:0], body)
	if err != nil {
		putUnmarshalWork(uw)
		return err
	}
	if h.SubscriberManager != nil {
		h.SubscriberManager.Send(db, rp, uw.reqBuf)
	}
	err = h.store(db, rp, uw.reqBuf)
	putUnmarshalWork(uw) // want `useafterput`
	return err
}
