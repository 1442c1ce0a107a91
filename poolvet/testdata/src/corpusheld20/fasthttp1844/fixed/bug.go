// Package bug reproduces the shape of valyala/fasthttp#1844
// (https://github.com/valyala/fasthttp/pull/1844): with StreamRequestBody
// enabled, serveConn reads only the request headers and attaches a body stream
// that keeps reading from the connection's pooled *bufio.Reader. When
// ReduceMemoryUsage is on and the reader happens to have nothing buffered (e.g.
// a chunked body whose first chunk has not arrived yet), serveConn still returns
// the reader to the server's pool and only then calls the handler, which drains
// the body stream through the reader that now belongs to the pool (and to the
// next connection that acquires it). The fix skips the early release when the
// body is streamed.
// Check: useafterput (the handler call that reads the body stream after
// releaseReader put the reader back).
package bug

import (
	"bufio"
	"io"
	"net"
	"sync"
)

const defaultReadBufferSize = 4096

// Server is a minimal stand-in for fasthttp.Server.
type Server struct {
	Handler           func(ctx *RequestCtx)
	StreamRequestBody bool
	ReduceMemoryUsage bool
	ReadBufferSize    int

	readerPool sync.Pool
}

// requestStream reads the request body straight from the connection reader.
type requestStream struct {
	reader    *bufio.Reader
	remaining int
}

func (rs *requestStream) Read(p []byte) (int, error) {
	if rs.remaining <= 0 {
		return 0, io.EOF
	}
	if len(p) > rs.remaining {
		p = p[:rs.remaining]
	}
	n, err := rs.reader.Read(p)
	rs.remaining -= n
	return n, err
}

// Request is a minimal stand-in for fasthttp.Request.
type Request struct {
	contentLength int
	body          []byte
	bodyStream    io.Reader
}

func (req *Request) readHeader(r *bufio.Reader) error {
	line, err := r.ReadSlice('\n')
	if err != nil {
		return err
	}
	req.contentLength = len(line)
	return nil
}

// readBodyStream does not read the body; it wires a stream over r instead.
func (req *Request) readBodyStream(r *bufio.Reader) error {
	req.bodyStream = &requestStream{reader: r, remaining: req.contentLength}
	return nil
}

// readLimitBody reads the whole body into memory.
func (req *Request) readLimitBody(r *bufio.Reader) error {
	req.body = req.body[:0]
	buf := make([]byte, req.contentLength)
	n, err := io.ReadFull(r, buf)
	req.body = append(req.body, buf[:n]...)
	return err
}

// RequestCtx is a minimal stand-in for fasthttp.RequestCtx.
type RequestCtx struct {
	Request Request
	s       *Server
	c       net.Conn
}

// RequestBodyStream returns the streamed body.
func (ctx *RequestCtx) RequestBodyStream() io.Reader { return ctx.Request.bodyStream }

func acquireReader(ctx *RequestCtx) *bufio.Reader {
	v := ctx.s.readerPool.Get()
	if v == nil {
		n := ctx.s.ReadBufferSize
		if n <= 0 {
			n = defaultReadBufferSize
		}
		return bufio.NewReaderSize(ctx.c, n)
	}
	r := v.(*bufio.Reader)
	r.Reset(ctx.c)
	return r
}

func releaseReader(s *Server, r *bufio.Reader) {
	r.Reset(nil)
	s.readerPool.Put(r)
}

func (s *Server) serveConn(c net.Conn) (err error) {
	ctx := &RequestCtx{s: s, c: c}
	var br *bufio.Reader
	for {
		if br == nil {
			br = acquireReader(ctx)
		}
		err = ctx.Request.readHeader(br)
		if err == nil {
			if s.StreamRequestBody {
				err = ctx.Request.readBodyStream(br)
			} else {
				err = ctx.Request.readLimitBody(br)
			}
		}

		// A streamed body still reads from br after this point, so it must
		// not go back to the pool yet.
		if (!s.StreamRequestBody && s.ReduceMemoryUsage && br.Buffered() == 0) || err != nil {
			releaseReader(s, br)
			br = nil
		}
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			break
		}

		s.Handler(ctx)
	}
	if br != nil {
		releaseReader(s, br)
	}
	return err
}

// Serve handles a single connection.
func (s *Server) Serve(c net.Conn) error {
	defer c.Close()
	return s.serveConn(c)
}
