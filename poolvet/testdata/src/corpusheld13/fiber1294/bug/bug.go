// Package bug reproduces the shape of gofiber/fiber#1294
// (https://github.com/gofiber/fiber/issues/1294): a handler read a header
// with ctx.Get, which returns a zero-copy string over the pooled request
// context's bytes, and passed it to a goroutine. When the handler returned,
// the framework put the context back into its pool; under load the next
// request overwrote the bytes and the goroutine printed a mangled value
// ("64.2.3.4" instead of "1.2.3.4").
//
// Check: useafterput (hand-off: a string made with unsafe over the pooled
// context's memory goes to a goroutine in a callee that does not wait; the
// caller's deferred Put then runs). Per docs/poolvet.md, with a deferred Put
// the report is at the hand-off, here the call that hands the context to
// the handler that starts the goroutine.
package bug

import (
	"fmt"
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

// ExampleHandler is the user's handler from the report.
func ExampleHandler(c *Ctx) error {
	ip := c.Get("real-ip")
	go func(ip string) {
		fmt.Println(ip)
	}(ip)
	return nil
}

func (app *App) handler(rctx *RequestCtx) {
	c := app.AcquireCtx(rctx)
	defer app.ReleaseCtx(c)
	_ = ExampleHandler(c) // want `useafterput`
}
