// Package bug reproduces the shape of erpc/erpc#573 (https://github.com/erpc/erpc/pull/573):
// with gzip enabled, the JSON-RPC HTTP client compresses the request into a
// *bytes.Buffer borrowed from the util buffer pool and wraps it in a
// pooledBufferReadCloser that is used as the http.Request body. Close hands
// the buffer back with ReturnBuf, but nothing stops Read from running after
// (or while) Close ran: net/http's transport may close the body from one
// goroutine while its write loop is still reading it, and the bytes.Reader
// then reads memory another request has borrowed (or a nil reader panics).
// The fix guards Read/Close with a mutex and makes Read return io.EOF once
// the reader is gone.
// Check: useafterput (fixed twin: Read and Close are serialized and Read
// returns io.EOF once Close gave the buffer back).
package bug

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"sync"
)

const maxBufCap = 64 << 10 // 64 KiB

var byteBufPool = sync.Pool{
	New: func() any { return bytes.NewBuffer(make([]byte, 0, maxBufCap)) },
}

// BorrowBuf returns a cleared *bytes.Buffer from the pool.
func BorrowBuf() *bytes.Buffer {
	buf := byteBufPool.Get().(*bytes.Buffer)
	buf.Reset()
	return buf
}

// ReturnBuf puts buf back in the pool when its capacity is reasonable.
func ReturnBuf(buf *bytes.Buffer) {
	if buf == nil || buf.Cap() > 4*maxBufCap {
		return
	}
	byteBufPool.Put(buf)
}

// pooledBufferReadCloser wraps a pooled *bytes.Buffer and exposes it as an
// io.ReadCloser. On Close, it returns the buffer to the pool via ReturnBuf.
type pooledBufferReadCloser struct {
	mu     sync.Mutex
	reader *bytes.Reader
	buf    *bytes.Buffer
}

// NewPooledBufferReadCloser creates a ReadCloser over the current contents of
// buf. The buffer is returned to the pool when Close is called.
func NewPooledBufferReadCloser(buf *bytes.Buffer) *pooledBufferReadCloser {
	if buf == nil {
		return &pooledBufferReadCloser{reader: bytes.NewReader(nil)}
	}
	return &pooledBufferReadCloser{reader: bytes.NewReader(buf.Bytes()), buf: buf}
}

func (p *pooledBufferReadCloser) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()

	if p.reader == nil {
		// closed or not initialized
		return 0, io.EOF
	}
	return p.reader.Read(b)
}

func (p *pooledBufferReadCloser) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.buf != nil {
		ReturnBuf(p.buf)
		p.buf = nil
	}
	p.reader = nil
	return nil
}

// GenericHTTPJSONRPCClient posts JSON-RPC requests.
type GenericHTTPJSONRPCClient struct {
	url        string
	enableGzip bool
	client     *http.Client
}

func (c *GenericHTTPJSONRPCClient) prepareRequest(ctx context.Context, body []byte) (*http.Request, error) {
	var bodyReader = bytes.NewReader(body)
	var req *http.Request
	var err error

	if c.enableGzip {
		buf := BorrowBuf()
		gw := gzip.NewWriter(buf)
		if _, err := gw.Write(body); err != nil {
			ReturnBuf(buf)
			return nil, err
		}
		if err := gw.Close(); err != nil {
			ReturnBuf(buf)
			return nil, err
		}
		// Wrap the pooled buffer so it is returned when the body is closed.
		prc := NewPooledBufferReadCloser(buf)
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, c.url, prc)
		if err != nil {
			_ = prc.Close()
			return nil, err
		}
		req.Header.Set("Content-Encoding", "gzip")
	} else {
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, c.url, bodyReader)
		if err != nil {
			return nil, err
		}
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// SendRequest sends body; the transport closes the request body, possibly
// from another goroutine while its write loop is still reading it.
func (c *GenericHTTPJSONRPCClient) SendRequest(ctx context.Context, body []byte) (*http.Response, error) {
	req, err := c.prepareRequest(ctx, body)
	if err != nil {
		return nil, err
	}
	return c.client.Do(req)
}
