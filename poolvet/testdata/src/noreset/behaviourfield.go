package noreset

import "sync"

// A router context whose reset forgets the handler that Find sets only
// when a route matches (labstack/echo 296498c): an unmatched request runs
// the previous request's handler.

type bfContext struct {
	path    string
	params  []string
	handler func(*bfContext)
}

func (c *bfContext) reset(path string) { // want `reset resets bfContext but not handler, which bfFind sets on some paths and a user of the pool reads after this reset`
	c.path = path
	c.params = c.params[:0]
}

func bfFind(routes map[string]func(*bfContext), c *bfContext) {
	if h, ok := routes[c.path]; ok {
		c.handler = h
	}
}

var bfPool = sync.Pool{New: func() any { return &bfContext{handler: func(*bfContext) {}} }}

func bfServe(routes map[string]func(*bfContext), path string) {
	c := bfPool.Get().(*bfContext)
	c.reset(path)
	bfFind(routes, c)
	c.handler(c)
	bfPool.Put(c)
}

// Silent: the handler is set on every path before it is read.
type bfContext2 struct {
	path    string
	params  []string
	handler func(*bfContext2)
}

func (c *bfContext2) reset(path string) {
	c.path = path
	c.params = c.params[:0]
}

func bfFind2(routes map[string]func(*bfContext2), c *bfContext2) {
	h, ok := routes[c.path]
	if !ok {
		h = func(*bfContext2) {}
	}
	c.handler = h
}

var bfPool2 = sync.Pool{New: func() any { return new(bfContext2) }}

func bfServe2(routes map[string]func(*bfContext2), path string) {
	c := bfPool2.Get().(*bfContext2)
	c.reset(path)
	bfFind2(routes, c)
	c.handler(c)
	bfPool2.Put(c)
}

// Silent: an interface field set only when the object is made (the
// pool's New), not by its users: configuration, not per-use state.
type bfLogger interface{ Log(string) }

type bfContext3 struct {
	path   string
	params []string
	log    bfLogger
}

func (c *bfContext3) reset(path string) {
	c.path = path
	c.params = c.params[:0]
}

type bfNop struct{}

func (bfNop) Log(string) {}

var bfPool3 = sync.Pool{New: func() any { return &bfContext3{log: bfNop{}} }}

func bfServe3(path string) {
	c := bfPool3.Get().(*bfContext3)
	c.reset(path)
	c.log.Log(c.path)
	bfPool3.Put(c)
}
