// Package bug reproduces the shape of beego/beego#1718
// (https://github.com/beego/beego/pull/1718, for astaxie/beego#1693): the
// router's ServeHTTP took its request context from a sync.Pool and deferred
// both the panic handler and the Put. The Put was deferred after the panic
// handler, so (deferred calls run last-in first-out) the context was already
// back in the pool when recoverPanic used it to write the error response.
//
// Check: useafterput (a deferred call registered before the deferred Put
// runs after it; per docs the report is at the first defer. The deferred
// closure clears the request fields so that only the ordering is at fault).
package bug

import (
	"fmt"
	"net/http"
	"sync"
)

type Context struct {
	ResponseWriter http.ResponseWriter
	Request        *http.Request
	status         int
}

func (c *Context) Reset(rw http.ResponseWriter, r *http.Request) {
	c.ResponseWriter = rw
	c.Request = r
	c.status = 0
}

type ControllerRegister struct {
	pool     sync.Pool
	handlers map[string]func(*Context)
}

func NewControllerRegister() *ControllerRegister {
	p := &ControllerRegister{handlers: map[string]func(*Context){}}
	p.pool.New = func() any { return new(Context) }
	return p
}

func (p *ControllerRegister) recoverPanic(ctx *Context) {
	if err := recover(); err != nil {
		ctx.status = http.StatusInternalServerError
		ctx.ResponseWriter.WriteHeader(ctx.status)
		fmt.Fprintf(ctx.ResponseWriter, "%v", err)
	}
}

func (p *ControllerRegister) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	context := p.pool.Get().(*Context)
	context.Reset(rw, r)
	defer p.recoverPanic(context) // want `useafterput`
	defer func() {
		context.ResponseWriter = nil
		context.Request = nil
		p.pool.Put(context)
	}()

	h, ok := p.handlers[r.URL.Path]
	if !ok {
		panic("no handler for " + r.URL.Path)
	}
	h(context)
}
