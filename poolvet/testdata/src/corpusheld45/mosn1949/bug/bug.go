// Package bug reproduces the shape of mosn/mosn#1949
// (https://github.com/mosn/mosn/pull/1949, issue mosn/mosn#1948): the HTTP/1
// server loop keeps its serverStream inside per-request buffers taken from a
// pool. With the worker pool enabled the proxy finishes the request on
// another goroutine and gives those buffers back (resetting the
// serverStream) as soon as it is done. After handleRequest the loop still
// reads s.responseDoneChan from the recycled stream: it may find nil (or
// another request's channel) and block forever.
//
// Check: useafterput (serverStream field read after the proxy gave the
// buffers back to the pool; report at the read of s.responseDoneChan).
package bug

import (
	"context"
	"sync"
	"sync/atomic"
)

// Request and Response stand in for the fasthttp objects kept in the
// per-request buffers.
type Request struct{ Body []byte }

// Reset clears the request.
func (r *Request) Reset() { r.Body = r.Body[:0] }

// Response is the reply under construction.
type Response struct{ Body []byte }

// Reset clears the response.
func (r *Response) Reset() { r.Body = r.Body[:0] }

// httpBuffers holds every per-request object of one HTTP/1 exchange; it is
// pooled as a whole.
type httpBuffers struct {
	serverStream   serverStream
	serverRequest  Request
	serverResponse Response
}

var httpBufferPool = sync.Pool{
	New: func() interface{} { return new(httpBuffers) },
}

// bufferPoolContext owns the pooled buffers of one request context.
type bufferPoolContext struct {
	value *httpBuffers
}

// Find returns the request's buffers, taking them from the pool on first use.
func (c *bufferPoolContext) Find() *httpBuffers {
	if c.value == nil {
		c.value = httpBufferPool.Get().(*httpBuffers)
	}
	return c.value
}

// Give resets the buffers and returns them to the pool.
func (c *bufferPoolContext) Give() {
	if c.value == nil {
		return
	}
	buf := c.value
	c.value = nil
	buf.serverStream = serverStream{}
	buf.serverRequest.Reset()
	buf.serverResponse.Reset()
	httpBufferPool.Put(buf)
}

type ctxKey struct{}

func poolContext(ctx context.Context) *bufferPoolContext {
	return ctx.Value(ctxKey{}).(*bufferPoolContext)
}

func httpBuffersByContext(ctx context.Context) *httpBuffers {
	return poolContext(ctx).Find()
}

// StreamReceiveListener is implemented by the proxy.
type StreamReceiveListener interface {
	OnReceive(ctx context.Context, body []byte)
}

// downstream is the proxy side of a request. With the worker pool enabled
// it runs on another goroutine and gives the request's buffers back to the
// pool when it is done.
type downstream struct {
	ctx    context.Context
	sender *serverStream
}

func (d *downstream) OnReceive(ctx context.Context, body []byte) {
	go func() {
		d.sender.response.Body = append(d.sender.response.Body, body...)
		d.sender.endStream()
		poolContext(d.ctx).Give()
	}()
}

type serverStream struct {
	ctx              context.Context
	request          *Request
	response         *Response
	receiver         StreamReceiveListener
	readDisableCount int32
	responseDoneChan chan bool
}

func (s *serverStream) endStream() {
	s.responseDoneChan <- true
}

func (s *serverStream) handleRequest(ctx context.Context) {
	if s.request != nil {
		s.receiver.OnReceive(ctx, s.request.Body)
	}
}

type serverStreamConnection struct {
	base       context.Context
	connClosed chan bool
	reads      chan []byte
}

func (conn *serverStreamConnection) newContext() context.Context {
	return context.WithValue(conn.base, ctxKey{}, &bufferPoolContext{})
}

func (conn *serverStreamConnection) serve() {
	for {
		body, ok := <-conn.reads
		if !ok {
			return
		}
		ctx := conn.newContext()
		buffers := httpBuffersByContext(ctx)
		buffers.serverRequest.Body = append(buffers.serverRequest.Body, body...)

		s := &buffers.serverStream
		s.ctx = ctx
		s.request = &buffers.serverRequest
		s.response = &buffers.serverResponse
		s.responseDoneChan = make(chan bool, 1)
		s.receiver = &downstream{ctx: ctx, sender: s}

		if atomic.LoadInt32(&s.readDisableCount) <= 0 {
			s.handleRequest(s.ctx)
		}

		// wait for proxy done
		select {
		case <-s.responseDoneChan: // want `useafterput`
		case <-conn.connClosed:
			return
		}
	}
}
