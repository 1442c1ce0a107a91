// Package bug reproduces the shape found in review of kpango/gache#154
// (https://github.com/kpango/gache/pull/154): Set took a *value[V] from a
// pool and, when Swap replaced an old entry, returned the old *value[V] to
// the pool with its fields intact, so pooled entries kept references to old
// values (and their memory) until reused.
//
// Check: noreset (an object put back without clearing its fields).
package bug

import (
	"sync"
	"time"
)

type value[V any] struct {
	val    V
	expire int64
}

type Gache[V any] struct {
	shard   sync.Map
	valPool sync.Pool
}

func New[V any]() *Gache[V] {
	g := &Gache[V]{}
	g.valPool.New = func() any { return new(value[V]) }
	return g
}

func (g *Gache[V]) Set(key string, val V, ttl time.Duration) {
	newVal := g.valPool.Get().(*value[V])
	newVal.val = val
	newVal.expire = time.Now().Add(ttl).UnixNano()
	old, loaded := g.shard.Swap(key, newVal)
	if loaded {
		g.valPool.Put(old) // want `noreset|not reset|clear|stale|zero`
	}
}
