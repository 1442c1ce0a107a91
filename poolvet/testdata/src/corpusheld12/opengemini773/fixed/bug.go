// Package fixed is openGemini/openGemini#773 after the fix: the write path
// hands the subscription writers their own copy of the request body, so the
// pooled work struct can be recycled once the local write is done.
package fixed

import (
	"bytes"
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
		h.SubscriberManager.Send(db, rp, bytes.Clone(uw.reqBuf))
	}
	err = h.store(db, rp, uw.reqBuf)
	putUnmarshalWork(uw)
	return err
}
