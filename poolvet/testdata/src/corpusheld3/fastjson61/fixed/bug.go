// Package fixed is valyala/fastjson#61 with the obvious fix asked for in the
// issue: ArenaPool.Put resets the Arena before pooling it.
package fixed

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

// Put resets a and returns it to the pool.
func (ap *ArenaPool) Put(a *Arena) {
	a.Reset()
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
	arenaPool.Put(a)
	return out
}
