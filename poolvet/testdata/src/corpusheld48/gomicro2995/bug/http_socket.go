// Source: https://github.com/micro/go-micro/pull/2995 (fixes
// https://github.com/micro/go-micro/issues/2988), commit
// https://github.com/micro/go-micro/commit/3e885308a0b9975a02adf0b1d2307ebedd0fb02e
// ("lint: clear the golangci-lint backlog ... SA6002 (store *[]byte in
// sync.Pool)"). The pool was introduced by commit 44cc313 ("use buf pool").
//
// Bug: transport/http2_buf_pool.go kept the HTTP/2 receive buffers of
// httpTransportSocket.recvHTTP2 in a sync.Pool as plain []byte values: New
// returned make([]byte, DefaultBufSizeH2) and recvHTTP2 did
// bufPool.Put(buf) on both the read-error path and the normal path. Each Put
// of a slice boxes the slice header into an interface, which allocates on
// every call, defeating the pool the commit had added for reuse.
// Fix: the pool stores *[]byte; New returns &buf, recvHTTP2 gets a *[]byte,
// dereferences it (storing a regrown slice back through the pointer) and
// puts the pointer back on both paths.
// Check: nonpointer (both bufPool.Put(buf) calls in recvHTTP2 put a []byte
// value into the sync.Pool)
package bug

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"sync"
)

const DefaultBufSizeH2 = 4 * 1024 * 1024

var http2BufPool = sync.Pool{
	New: func() interface{} {
		return make([]byte, DefaultBufSizeH2)
	},
}

func getHTTP2BufPool() *sync.Pool {
	return &http2BufPool
}

type Message struct {
	Header map[string]string
	Body   []byte
}

type Options struct {
	BuffSizeH2 int
}

type httpTransport struct {
	opts Options
}

type httpTransportSocket struct {
	w  http.ResponseWriter
	ht *httpTransport
	r  *http.Request

	// h2 things
	buf *bufio.Reader
	// indicate if socket is closed
	closed chan bool
}

func (h *httpTransportSocket) Recv(msg *Message) error {
	if msg == nil {
		return errors.New("message passed in is nil")
	}

	if msg.Header == nil {
		msg.Header = make(map[string]string, len(h.r.Header))
	}

	return h.recvHTTP2(msg)
}

func (h *httpTransportSocket) recvHTTP2(msg *Message) error {
	// only process if the socket is open
	select {
	case <-h.closed:
		return io.EOF
	default:
	}

	// buffer pool for reuse
	var bufPool = getHTTP2BufPool()

	// set max buffer size
	s := h.ht.opts.BuffSizeH2
	if s == 0 {
		s = DefaultBufSizeH2
	}

	buf := bufPool.Get().([]byte)
	if cap(buf) < s {
		buf = make([]byte, s)
	}
	buf = buf[:s]

	n, err := h.buf.Read(buf)
	if err != nil {
		bufPool.Put(buf) // want `nonpointer`
		return err
	}

	if n > 0 {
		msg.Body = make([]byte, n)
		copy(msg.Body, buf[:n])
	}
	bufPool.Put(buf) // want `nonpointer`

	for k, v := range h.r.Header {
		if len(v) > 0 {
			msg.Header[k] = v[0]
		} else {
			msg.Header[k] = ""
		}
	}

	msg.Header[":path"] = h.r.URL.Path

	return nil
}
