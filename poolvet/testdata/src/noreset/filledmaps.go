package noreset

import "sync"

// A request context whose reset forgets the map its Set fills
// (labstack/echo#1, fixed in 6d733d3).

type fmContext struct {
	path  string
	query []string
	store map[string]any
}

func (c *fmContext) Set(k string, v any) {
	if c.store == nil {
		c.store = make(map[string]any)
	}
	c.store[k] = v
}

func (c *fmContext) Get(k string) any { return c.store[k] }

func (c *fmContext) reset(path string) { // want `reset resets fmContext but not store, a map that Set adds entries to`
	c.path = path
	c.query = c.query[:0]
}

var fmPool = sync.Pool{New: func() any { return new(fmContext) }}

func fmServe(path string, h func(*fmContext)) {
	c := fmPool.Get().(*fmContext)
	c.reset(path)
	h(c)
	fmPool.Put(c)
}

// Silent: the reset drops the map.
type fmContext2 struct {
	path  string
	query []string
	store map[string]any
}

func (c *fmContext2) Set(k string, v any) {
	if c.store == nil {
		c.store = make(map[string]any)
	}
	c.store[k] = v
}

func (c *fmContext2) reset(path string) {
	c.path = path
	c.query = c.query[:0]
	c.store = nil
}

var fmPool2 = sync.Pool{New: func() any { return new(fmContext2) }}

func fmServe2(path string, h func(*fmContext2)) {
	c := fmPool2.Get().(*fmContext2)
	c.reset(path)
	h(c)
	fmPool2.Put(c)
}

// Silent: the map is emptied elsewhere, after each use.
type fmContext3 struct {
	path  string
	query []string
	store map[string]any
}

func (c *fmContext3) Set(k string, v any) { c.store[k] = v }

func (c *fmContext3) reset(path string) {
	c.path = path
	c.query = c.query[:0]
}

var fmPool3 = sync.Pool{New: func() any { return &fmContext3{store: map[string]any{}} }}

func fmServe3(path string, h func(*fmContext3)) {
	c := fmPool3.Get().(*fmContext3)
	c.reset(path)
	h(c)
	clear(c.store)
	fmPool3.Put(c)
}

// Silent: only the constructor fills the map (a table of defaults).
type fmContext4 struct {
	path     string
	query    []string
	defaults map[string]string
}

func newFmContext4() *fmContext4 {
	c := &fmContext4{defaults: map[string]string{}}
	c.defaults["lang"] = "en"
	return c
}

func (c *fmContext4) reset(path string) {
	c.path = path
	c.query = c.query[:0]
}

var fmPool4 = sync.Pool{New: func() any { return newFmContext4() }}

func fmServe4(path string, h func(*fmContext4)) {
	c := fmPool4.Get().(*fmContext4)
	c.reset(path)
	h(c)
	fmPool4.Put(c)
}
