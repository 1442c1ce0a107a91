// Package bug reproduces the shape of beego/beego#1862
// (https://github.com/beego/beego/issues/1862, fixed by
// https://github.com/beego/beego/pull/1863): beego 1.6.1 began taking its
// request Context from a sync.Pool. Context.Reset re-initialised the request,
// the response writer, Input and Output, but not the cached _xsrfToken, so a
// pooled context handed the previous visitor's XSRF token to the next request
// (XSRFToken only makes a new one when the field is empty) and
// CheckXSRFCookie compared the form token against someone else's.
//
// Check: noreset (a Reset that clears the other fields one by one forgets the
// cached token field that XSRFToken sets and CheckXSRFCookie reads). The want
// is on the Put (in ServeHTTP's deferred closure) that follows the Reset, as
// the docs place "a Reset that forgets a field". The closure also drops the
// request and writer (not in beego 1.6.1) so that the only stale state left
// is the token.
package bug

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sync"
)

type Input struct {
	ctx     *Context
	pnames  []string
	pvalues []string
}

func (in *Input) Reset(ctx *Context) {
	in.ctx = ctx
	in.pnames = in.pnames[:0]
	in.pvalues = in.pvalues[:0]
}

func (in *Input) Query(key string) string {
	for i, n := range in.pnames {
		if n == key {
			return in.pvalues[i]
		}
	}
	return in.ctx.Request.FormValue(key)
}

type Output struct {
	ctx    *Context
	Status int
}

func (out *Output) Reset(ctx *Context) {
	out.ctx = ctx
	out.Status = 0
}

type Response struct {
	http.ResponseWriter
	Started bool
}

func (r *Response) reset(rw http.ResponseWriter) {
	r.ResponseWriter = rw
	r.Started = false
}

type Context struct {
	Input          *Input
	Output         *Output
	Request        *http.Request
	ResponseWriter *Response
	_xsrfToken     string
}

func NewContext() *Context {
	return &Context{Input: &Input{}, Output: &Output{}}
}

// Reset prepares a pooled context for a new request.
func (ctx *Context) Reset(rw http.ResponseWriter, r *http.Request) {
	ctx.Request = r
	if ctx.ResponseWriter == nil {
		ctx.ResponseWriter = &Response{}
	}
	ctx.ResponseWriter.reset(rw)
	ctx.Input.Reset(ctx)
	ctx.Output.Reset(ctx)
}

// XSRFToken returns the token of this request, making one on first use.
func (ctx *Context) XSRFToken() string {
	if ctx._xsrfToken == "" {
		token := ""
		if c, err := ctx.Request.Cookie("_xsrf"); err == nil {
			token = c.Value
		} else {
			var b [16]byte
			_, _ = rand.Read(b[:])
			token = hex.EncodeToString(b[:])
			http.SetCookie(ctx.ResponseWriter, &http.Cookie{Name: "_xsrf", Value: token})
		}
		ctx._xsrfToken = token
	}
	return ctx._xsrfToken
}

// CheckXSRFCookie compares the submitted token with the one of this request.
func (ctx *Context) CheckXSRFCookie() bool {
	token := ctx.Input.Query("_xsrf")
	if token == "" {
		token = ctx.Request.Header.Get("X-Xsrftoken")
	}
	if token == "" || ctx._xsrfToken != token {
		ctx.Output.Status = http.StatusForbidden
		return false
	}
	return true
}

type ControllerRegister struct {
	pool    sync.Pool
	handler func(*Context)
}

func NewControllerRegister(h func(*Context)) *ControllerRegister {
	cr := &ControllerRegister{handler: h}
	cr.pool.New = func() any { return NewContext() }
	return cr
}

func (p *ControllerRegister) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	context := p.pool.Get().(*Context)
	context.Reset(rw, r)

	defer func() {
		// drop this request's references before the context goes back
		context.Request = nil
		context.ResponseWriter.reset(nil)
		p.pool.Put(context) // want `noreset`
	}()

	// the token is taken (or made) first, then checked on writes, as the
	// controller does when XSRF is enabled
	context.XSRFToken()
	if r.Method == http.MethodPost && !context.CheckXSRFCookie() {
		rw.WriteHeader(context.Output.Status)
		return
	}
	p.handler(context)
}
