// Package bug reproduces the shape of beego/beego#4096
// (https://github.com/beego/beego/pull/4096, "fix memory leak of request
// context", closing beego/beego#4094): ServeHTTP takes its Context from a
// sync.Pool through GetContext and gives it back with GiveBackContext, which
// only called Put. The idle context still held the finished request: its
// router params, the values filters stored with SetData, the copied request
// body and the request itself, so every context parked in the pool kept one
// request's data alive (the reporter saw the heap grow under load).
//
// Check: noreset (an object put back still holding references a user stored
// in it: SetData values, params, body). The want is on the Put in
// GiveBackContext.
package bug

import (
	"io"
	"net/http"
	"strings"
	"sync"
)

type Input struct {
	Context     *Context
	pnames      []string
	pvalues     []string
	data        map[any]any
	dataLock    sync.RWMutex
	RequestBody []byte
}

// Reset prepares the input for a new request (called right after Get).
func (in *Input) Reset(ctx *Context) {
	in.Context = ctx
	in.pnames = in.pnames[:0]
	in.pvalues = in.pvalues[:0]
	in.dataLock.Lock()
	in.data = nil
	in.dataLock.Unlock()
	in.RequestBody = []byte{}
}

// SetParam records a router parameter.
func (in *Input) SetParam(key, val string) {
	for i, n := range in.pnames {
		if n == key {
			in.pvalues[i] = val
			return
		}
	}
	in.pnames = append(in.pnames, key)
	in.pvalues = append(in.pvalues, val)
}

func (in *Input) Param(key string) string {
	for i, n := range in.pnames {
		if n == key {
			return in.pvalues[i]
		}
	}
	return ""
}

// SetData keeps a value for the rest of this request (filters, controllers).
func (in *Input) SetData(key, val any) {
	in.dataLock.Lock()
	defer in.dataLock.Unlock()
	if in.data == nil {
		in.data = make(map[any]any)
	}
	in.data[key] = val
}

func (in *Input) GetData(key any) any {
	in.dataLock.RLock()
	defer in.dataLock.RUnlock()
	return in.data[key]
}

// CopyBody reads the request body (up to max bytes) and keeps a copy.
func (in *Input) CopyBody(max int64) []byte {
	if in.Context.Request.Body == nil {
		return []byte{}
	}
	body, _ := io.ReadAll(io.LimitReader(in.Context.Request.Body, max))
	in.Context.Request.Body.Close()
	in.RequestBody = body
	return body
}

type Output struct {
	Context *Context
	Status  int
}

func (out *Output) Reset(ctx *Context) {
	out.Context = ctx
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
}

func NewContext() *Context {
	return &Context{
		Input:  &Input{pnames: make([]string, 0, 8), pvalues: make([]string, 0, 8)},
		Output: &Output{},
	}
}

func (ctx *Context) Reset(rw http.ResponseWriter, r *http.Request) {
	ctx.Request = r
	if ctx.ResponseWriter == nil {
		ctx.ResponseWriter = &Response{}
	}
	ctx.ResponseWriter.reset(rw)
	ctx.Input.Reset(ctx)
	ctx.Output.Reset(ctx)
}

type FilterFunc func(*Context)

type route struct {
	parts []string // ":name" parts are parameters
	h     FilterFunc
}

type ControllerRegister struct {
	pool    sync.Pool
	filters []FilterFunc // run before the handler; they may SetData
	routes  []route
}

func NewControllerRegister(filters ...FilterFunc) *ControllerRegister {
	cr := &ControllerRegister{filters: filters}
	cr.pool.New = func() any { return NewContext() }
	return cr
}

func (p *ControllerRegister) Handle(pattern string, h FilterFunc) {
	p.routes = append(p.routes, route{parts: strings.Split(strings.Trim(pattern, "/"), "/"), h: h})
}

// findRouter matches the path and records its parameters in ctx.Input.
func (p *ControllerRegister) findRouter(ctx *Context) FilterFunc {
	segs := strings.Split(strings.Trim(ctx.Request.URL.Path, "/"), "/")
	for _, rt := range p.routes {
		if len(rt.parts) != len(segs) {
			continue
		}
		ok := true
		for i, part := range rt.parts {
			if !strings.HasPrefix(part, ":") && part != segs[i] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for i, part := range rt.parts {
			if strings.HasPrefix(part, ":") {
				ctx.Input.SetParam(part, segs[i])
			}
		}
		return rt.h
	}
	return nil
}

// GetContext returns a context from the pool; callers Reset it.
func (p *ControllerRegister) GetContext() *Context {
	return p.pool.Get().(*Context)
}

// GiveBackContext puts the context back so that it can be reused.
func (p *ControllerRegister) GiveBackContext(ctx *Context) {
	p.pool.Put(ctx) // want `noreset`
}

func (p *ControllerRegister) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	ctx := p.GetContext()
	ctx.Reset(rw, r)
	defer p.GiveBackContext(ctx)

	if r.Method == http.MethodPost || r.Method == http.MethodPut {
		ctx.Input.CopyBody(1 << 20)
	}
	for _, f := range p.filters {
		f(ctx)
	}
	h := p.findRouter(ctx)
	if h == nil {
		rw.WriteHeader(http.StatusNotFound)
		return
	}
	h(ctx)
}
