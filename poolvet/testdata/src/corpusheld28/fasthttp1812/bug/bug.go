// Package bug reproduces the shape of valyala/fasthttp#1812
// (https://github.com/valyala/fasthttp/issues/1812): the per-request user
// values of a RequestCtx live in a slice of key/value pairs. Before the
// server puts the ctx back into its pool it calls userData.Reset, which
// closes io.Closer values and truncates the slice with [:0], but leaves the
// key and value interfaces in the backing array. The pooled ctx keeps every
// key and value of the previous request reachable until they happen to be
// overwritten. The fix nils both fields of every pair before truncating.
//
// Check: noreset (the Reset that truncates a slice of interface pairs without
// clearing them, reported in Reset).
package bug

import (
	"io"
	"sync"
)

type userDataKV struct {
	key   any
	value any
}

type userData []userDataKV

func (d *userData) Set(key, value any) {
	args := *d
	for i := range args {
		if args[i].key == key {
			args[i].value = value
			return
		}
	}
	if value == nil {
		return
	}
	if cap(args) > len(args) {
		args = args[:len(args)+1]
		kv := &args[len(args)-1]
		kv.key = key
		kv.value = value
		*d = args
		return
	}
	*d = append(args, userDataKV{key: key, value: value})
}

func (d *userData) Get(key any) any {
	for _, kv := range *d {
		if kv.key == key {
			return kv.value
		}
	}
	return nil
}

func (d *userData) Reset() {
	args := *d
	for i := range args {
		if c, ok := args[i].value.(io.Closer); ok {
			c.Close()
		}
	}
	*d = (*d)[:0] // want `noreset`
}

// RequestCtx is the per-request state handed to handlers.
type RequestCtx struct {
	userValues userData
	connID     uint64
}

func (ctx *RequestCtx) SetUserValue(key, value any) { ctx.userValues.Set(key, value) }

func (ctx *RequestCtx) UserValue(key any) any { return ctx.userValues.Get(key) }

// Server serves requests with pooled contexts.
type Server struct {
	Handler func(ctx *RequestCtx)
	ctxPool sync.Pool
}

func (s *Server) acquireCtx(connID uint64) *RequestCtx {
	v := s.ctxPool.Get()
	if v == nil {
		return &RequestCtx{connID: connID}
	}
	ctx := v.(*RequestCtx)
	ctx.connID = connID
	return ctx
}

func (s *Server) releaseCtx(ctx *RequestCtx) {
	ctx.connID = 0
	s.ctxPool.Put(ctx)
}

func (s *Server) serveConn(connID uint64, requests int) {
	ctx := s.acquireCtx(connID)
	for i := 0; i < requests; i++ {
		s.Handler(ctx)
		ctx.userValues.Reset()
	}
	s.releaseCtx(ctx)
}
