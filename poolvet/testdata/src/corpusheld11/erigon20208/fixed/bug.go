// Package fixed is the fix of erigontech/erigon#20208
// (https://github.com/erigontech/erigon/pull/20208): Release cleans the
// object (cursor and cache dropped) before it goes back, so nothing the
// caller owns is kept alive by the pool, and the constructor no longer needs
// to clean what it gets.
package fixed

import "sync"

// PatriciaContext is the state reader the trie reads branches through.
type PatriciaContext interface {
	Branch(prefix []byte) ([]byte, error)
}

type WarmupCache struct {
	entries map[string][]byte
}

type HexPatriciaHashed struct {
	ctx         PatriciaContext
	cache       *WarmupCache
	rootTouched bool
	depth       int
}

var hphPool = sync.Pool{
	New: func() any { return &HexPatriciaHashed{} },
}

func (hph *HexPatriciaHashed) resetForReuse() {
	hph.ctx = nil
	hph.cache = nil
	hph.rootTouched = false
	hph.depth = 0
}

// NewHexPatriciaHashed relies on Release having cleaned the object.
func NewHexPatriciaHashed(ctx PatriciaContext, cache *WarmupCache) *HexPatriciaHashed {
	hph := hphPool.Get().(*HexPatriciaHashed)
	hph.ctx = ctx
	hph.cache = cache
	return hph
}

func (hph *HexPatriciaHashed) Process(keys [][]byte) (int, error) {
	n := 0
	for _, k := range keys {
		b, err := hph.ctx.Branch(k)
		if err != nil {
			return n, err
		}
		if hph.cache != nil {
			hph.cache.entries[string(k)] = b
		}
		hph.rootTouched = true
		n++
	}
	return n, nil
}

// Release cleans the object before handing it back.
func (hph *HexPatriciaHashed) Release() {
	hph.resetForReuse()
	hphPool.Put(hph)
}
