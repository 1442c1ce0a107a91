// Package fixed is the fixed twin of beego/beego#1718
// (https://github.com/beego/beego/pull/1718): the Put is deferred first, so
// it runs after recoverPanic is done with the context.
package fixed

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
	defer func() {
		context.ResponseWriter = nil
		context.Request = nil
		p.pool.Put(context)
	}()
	defer p.recoverPanic(context)

	h, ok := p.handlers[r.URL.Path]
	if !ok {
		panic("no handler for " + r.URL.Path)
	}
	h(context)
}
