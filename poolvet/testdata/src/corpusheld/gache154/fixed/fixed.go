// Package fixed is the fix suggested in review of kpango/gache#154
// (https://github.com/kpango/gache/pull/154): clear the old entry before
// putting it back.
package fixed

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
		if ov, ok := old.(*value[V]); ok {
			var zero V
			ov.val = zero
			ov.expire = 0
			g.valPool.Put(ov)
		}
	}
}
