// Package bug reproduces the shape of valyala/fastjson#61
// (https://github.com/valyala/fastjson/issues/61): ArenaPool.Put hands an
// Arena back to its sync.Pool as it is, and callers that Get an arena, build
// values in it and Put it back never call Arena.Reset. The arena's value
// cache keeps everything the previous user built and keeps growing with
// every use (the reporter's service ran out of memory).
//
// Check: noreset (Put without Reset of a type that has a Reset method,
// through Get/Put wrappers that do not reset either). Report at the wrapper
// Put in Render.
package bug

import (
	"strings"
	"sync"
)

const (
	typeString = iota + 1
	typeArray
)

// Value is a JSON value built in an Arena.
type Value struct {
	t int
	s string
	a []*Value
}

func (v *Value) String() string {
	if v.t == typeString {
		return `"` + v.s + `"`
	}
	parts := make([]string, 0, len(v.a))
	for _, e := range v.a {
		parts = append(parts, e.String())
	}
	return "[" + strings.Join(parts, ",") + "]"
}

type cache struct {
	vs []Value
}

func (c *cache) reset() {
	c.vs = c.vs[:0]
}

func (c *cache) getValue() *Value {
	c.vs = append(c.vs, Value{})
	return &c.vs[len(c.vs)-1]
}

// Arena builds values; Reset makes its memory reusable.
type Arena struct {
	c cache
}

func (a *Arena) Reset() {
	a.c.reset()
}

func (a *Arena) NewString(s string) *Value {
	v := a.c.getValue()
	v.t = typeString
	v.s = s
	return v
}

func (a *Arena) NewArray() *Value {
	v := a.c.getValue()
	v.t = typeArray
	v.a = nil
	return v
}

// ArenaPool may be used for pooling Arenas.
type ArenaPool struct {
	pool sync.Pool
}

func (ap *ArenaPool) Get() *Arena {
	v := ap.pool.Get()
	if v == nil {
		return &Arena{}
	}
	return v.(*Arena)
}

func (ap *ArenaPool) Put(a *Arena) {
	ap.pool.Put(a)
}

var arenaPool ArenaPool

// Render marshals items as a JSON array of strings.
func Render(items []string) string {
	a := arenaPool.Get()
	arr := a.NewArray()
	for _, it := range items {
		arr.a = append(arr.a, a.NewString(it))
	}
	out := arr.String()
	arenaPool.Put(a) // want `noreset`
	return out
}
