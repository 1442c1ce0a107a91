// Package bug reproduces the shape of erigontech/erigon#20208
// (https://github.com/erigontech/erigon/pull/20208): HexPatriciaHashed
// objects are pooled; the constructor took one from the pool, cleaned it and
// stored the caller's PatriciaContext (a database cursor) and warmup cache in
// it, but Release put it back as it was. While idle in the pool the object
// kept the cursor and the cache reachable until the next Get.
//
// Check: noreset (references a user was passed, stored after Get by the Get
// helper, still held by the object at the Put in Release).
package bug

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

// NewHexPatriciaHashed cleans the pooled object on the way out.
func NewHexPatriciaHashed(ctx PatriciaContext, cache *WarmupCache) *HexPatriciaHashed {
	hph := hphPool.Get().(*HexPatriciaHashed)
	hph.resetForReuse()
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

// Release hands the object back with ctx and cache still set.
func (hph *HexPatriciaHashed) Release() {
	hphPool.Put(hph) // want `noreset`
}
