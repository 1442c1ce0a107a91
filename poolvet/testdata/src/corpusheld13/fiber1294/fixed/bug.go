// Package fixed is the fixed twin of corpusheld13/fiber1294: as the
// maintainer advised, the handler copies the value before it leaves the
// request/response cycle.
package fixed

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"
)

type RequestCtx struct {
	headerKeys [][]byte
	headerVals [][]byte
}

type Ctx struct {
	fasthttp *RequestCtx
}

type App struct {
	pool sync.Pool
}

func New() *App {
	return &App{pool: sync.Pool{New: func() any { return new(Ctx) }}}
}

func (app *App) AcquireCtx(rctx *RequestCtx) *Ctx {
	c := app.pool.Get().(*Ctx)
	c.fasthttp = rctx
	return c
}

func (app *App) ReleaseCtx(c *Ctx) {
	c.fasthttp = nil
	app.pool.Put(c)
}

// getString converts without copying, like fiber's utils.UnsafeString.
func getString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Get returns the value of a request header; it is only valid until the
// handler returns.
func (c *Ctx) Get(key string) string {
	for i, k := range c.fasthttp.headerKeys {
		if string(k) == key {
			return getString(c.fasthttp.headerVals[i])
		}
	}
	return ""
}

// ExampleHandler copies the header value before the goroutine gets it.
func ExampleHandler(c *Ctx) error {
	ip := strings.Clone(c.Get("real-ip"))
	go func(ip string) {
		fmt.Println(ip)
	}(ip)
	return nil
}

func (app *App) handler(rctx *RequestCtx) {
	c := app.AcquireCtx(rctx)
	defer app.ReleaseCtx(c)
	_ = ExampleHandler(c)
}
