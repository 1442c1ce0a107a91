// Package bug reproduces the shape of valyala/fasthttp#2211
// (https://github.com/valyala/fasthttp/pull/2211, "fix double release of
// streamed client response body"): with StreamResponseBody the client wraps the
// pooled requestStream in a closeReader whose close callback returns the
// bufio.Reader and the requestStream to their pools. The wrapper is exposed as
// resp.BodyStream(); a caller may close it directly with CloseWithError, and
// later ReleaseResponse -> Reset -> closeBodyStream closes the same wrapper
// again, so the callback runs twice and the requestStream (and reader) are put
// back twice. The fix makes the callback run once (an atomic flag).
//
// Check: doubleput (at the deferred ReleaseResponse, which re-runs the close
// callback that already put the requestStream back).
package bug

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
)

type requestStream struct {
	prefetchedBytes *bytes.Reader
	reader          *bufio.Reader
	totalBytesRead  int
	contentLength   int
}

func (rs *requestStream) Read(p []byte) (int, error) {
	if rs.prefetchedBytes != nil && rs.prefetchedBytes.Len() > 0 {
		n, err := rs.prefetchedBytes.Read(p)
		rs.totalBytesRead += n
		return n, err
	}
	if rs.totalBytesRead >= rs.contentLength {
		return 0, io.EOF
	}
	n, err := rs.reader.Read(p)
	rs.totalBytesRead += n
	return n, err
}

var requestStreamPool = sync.Pool{
	New: func() any {
		return &requestStream{}
	},
}

func acquireRequestStream(prefetched []byte, r *bufio.Reader, contentLength int) *requestStream {
	rs := requestStreamPool.Get().(*requestStream)
	rs.prefetchedBytes = bytes.NewReader(prefetched)
	rs.reader = r
	rs.contentLength = contentLength
	return rs
}

func releaseRequestStream(rs *requestStream) {
	rs.prefetchedBytes = nil
	rs.totalBytesRead = 0
	rs.contentLength = 0
	rs.reader = nil
	requestStreamPool.Put(rs)
}

type ReadCloserWithError interface {
	io.Reader
	CloseWithError(err error) error
}

type closeReader struct {
	io.Reader

	closeFunc func(err error) error
}

func newCloseReaderWithError(r io.Reader, closeFunc func(err error) error) ReadCloserWithError {
	if r == nil {
		panic("BUG: reader is nil")
	}
	return &closeReader{Reader: r, closeFunc: closeFunc}
}

func (c *closeReader) CloseWithError(err error) error {
	if c.closeFunc == nil {
		return nil
	}
	return c.closeFunc(err)
}

type Response struct {
	body       []byte
	bodyStream io.Reader
	connClose  bool
}

func (resp *Response) BodyStream() io.Reader { return resp.bodyStream }

func closeBodyStreamReader(r io.Reader, err error) error {
	if c, ok := r.(ReadCloserWithError); ok {
		return c.CloseWithError(err)
	}
	if c, ok := r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

func (resp *Response) closeBodyStream(wErr error) error {
	if resp.bodyStream == nil {
		return nil
	}
	err := closeBodyStreamReader(resp.bodyStream, wErr)
	resp.bodyStream = nil
	return err
}

func (resp *Response) Reset() {
	resp.closeBodyStream(nil) //nolint:errcheck
	resp.body = resp.body[:0]
	resp.connClose = false
}

var responsePool sync.Pool

func AcquireResponse() *Response {
	v := responsePool.Get()
	if v == nil {
		return &Response{}
	}
	return v.(*Response)
}

func ReleaseResponse(resp *Response) {
	resp.Reset()
	responsePool.Put(resp)
}

type conn struct {
	r io.Reader
}

type HostClient struct {
	readerPool sync.Pool
	conns      []*conn
}

func (hc *HostClient) AcquireReader(c *conn) *bufio.Reader {
	v := hc.readerPool.Get()
	if v == nil {
		return bufio.NewReaderSize(c.r, 4096)
	}
	br := v.(*bufio.Reader)
	br.Reset(c.r)
	return br
}

func (hc *HostClient) ReleaseReader(br *bufio.Reader) {
	br.Reset(nil)
	hc.readerPool.Put(br)
}

func (hc *HostClient) ReleaseConn(c *conn) { hc.conns = append(hc.conns, c) }
func (hc *HostClient) CloseConn(c *conn)   {}

// roundTrip reads the response head and, when streaming, hands the body to the
// caller as a closeReader that releases everything on close.
func (hc *HostClient) roundTrip(c *conn, resp *Response) error {
	br := hc.AcquireReader(c)
	head, err := br.Peek(1)
	if err != nil {
		hc.ReleaseReader(br)
		hc.CloseConn(c)
		return err
	}
	rbs := io.Reader(acquireRequestStream(head, br, 1<<20))
	closeConn := resp.connClose
	resp.bodyStream = newCloseReaderWithError(rbs, func(wErr error) error {
		hc.ReleaseReader(br)
		if r, ok := rbs.(*requestStream); ok {
			releaseRequestStream(r)
		}
		if closeConn || wErr != nil {
			hc.CloseConn(c)
		} else {
			hc.ReleaseConn(c)
		}
		return nil
	})
	return nil
}

// abortStream is what a streaming caller does when it gives up on a body: it
// closes the stream itself and lets the deferred ReleaseResponse clean up.
func abortStream(hc *HostClient, c *conn) error {
	resp := AcquireResponse()
	defer ReleaseResponse(resp) // want `doubleput`

	if err := hc.roundTrip(c, resp); err != nil {
		return err
	}
	stream, ok := resp.BodyStream().(ReadCloserWithError)
	if !ok {
		return errors.New("unexpected body stream type")
	}
	return stream.CloseWithError(errors.New("client closed"))
}
