// Package bug reproduces the shape of valyala/fasthttp#551
// (https://github.com/valyala/fasthttp/pull/551, fixing #548): Server.serveConn
// takes a *RequestCtx from the server's ctxPool, and in its keep-alive loop
// reads a request, runs the handler, calls ctx.Request.Reset() and writes the
// response. When the loop breaks before reaching that Reset (a read error, a
// failed 100-continue flush, ...), serveConn still hands ctx back to the pool
// through releaseCtx, which only clears the connection fields: the pooled ctx
// keeps the previous request's headers and body. The fix tracks whether the
// request was reset and resets it before releaseCtx otherwise.
//
// Check: noreset (at the s.releaseCtx(ctx) call at the end of serveConn).
package bug

import (
	"bufio"
	"errors"
	"io"
	"net"
	"sync"
)

type Request struct {
	Header []byte
	Body   []byte
	uri    string
	isTLS  bool
}

func (r *Request) Reset() {
	r.Header = r.Header[:0]
	r.Body = r.Body[:0]
	r.uri = ""
	r.isTLS = false
}

var errNothingRead = errors.New("nothing read")

func (r *Request) read(br *bufio.Reader) error {
	line, err := br.ReadSlice('\n')
	if err != nil {
		if len(line) == 0 {
			return errNothingRead
		}
		return err
	}
	header := append([]byte(nil), line...)
	body, err := br.ReadSlice('\n')
	if err != nil {
		return err
	}
	r.Header = append(r.Header, header...)
	r.Body = append(r.Body, body...)
	return nil
}

type Response struct {
	Body            []byte
	connectionClose bool
}

func (r *Response) Reset() {
	r.Body = r.Body[:0]
	r.connectionClose = false
}

type RequestCtx struct {
	Request  Request
	Response Response

	c              net.Conn
	connRequestNum uint64
	s              *Server
}

type Server struct {
	Handler func(ctx *RequestCtx)
	ctxPool sync.Pool
}

func (s *Server) acquireCtx(c net.Conn) (ctx *RequestCtx) {
	v := s.ctxPool.Get()
	if v == nil {
		ctx = &RequestCtx{s: s}
	} else {
		ctx = v.(*RequestCtx)
	}
	ctx.c = c
	return
}

func (s *Server) releaseCtx(ctx *RequestCtx) {
	ctx.c = nil
	s.ctxPool.Put(ctx)
}

func writeResponse(ctx *RequestCtx, bw *bufio.Writer) error {
	_, err := bw.Write(ctx.Response.Body)
	ctx.Response.Reset()
	return err
}

func (s *Server) serveConn(c net.Conn) error {
	var connRequestNum uint64
	ctx := s.acquireCtx(c)
	br := bufio.NewReader(c)
	bw := bufio.NewWriter(c)
	var err error
	for {
		connRequestNum++

		err = ctx.Request.read(br)
		if err != nil {
			if err == io.EOF || (connRequestNum > 1 && err == errNothingRead) {
				err = nil
			}
			break
		}

		ctx.connRequestNum = connRequestNum
		s.Handler(ctx)

		connectionClose := ctx.Response.connectionClose
		ctx.Request.Reset()

		if err = writeResponse(ctx, bw); err != nil {
			break
		}
		if err = bw.Flush(); err != nil {
			break
		}
		if connectionClose {
			break
		}
	}

	s.releaseCtx(ctx) // want `noreset`
	return err
}
