package useafterput

import (
	"strings"
	"sync"
	"unsafe"
)

// An unsafe string over a pooled buffer kept as a sync.Map key outlives
// the buffer's Put: the next user rewrites the key in place
// (ulule/limiter#231).
type smBuf struct{ blob []byte }

var smBufs = sync.Pool{New: func() any { return &smBuf{blob: make([]byte, 0, 64)} }}

func (b *smBuf) String() string { return unsafe.String(unsafe.SliceData(b.blob), len(b.blob)) } // want String:`pool:alias`

var smSeen sync.Map

func smRemember(prefix, key string) {
	b := smBufs.Get().(*smBuf)
	b.blob = append(append(b.blob[:0], prefix...), key...)
	smSeen.Store(b.String(), true)
	smBufs.Put(b) // want `b is put back into the pool while package-level smSeen \(kept there by the call at line 23\)`
}

// Through methods of a cache type whose field is the sync.Map.
type smCache struct{ counters sync.Map }

func (c *smCache) loadOrStore(key string, n *int) *int {
	v, _ := c.counters.LoadOrStore(key, n)
	return v.(*int)
}

func (c *smCache) incr(key string) int {
	n := c.loadOrStore(key, new(int))
	*n++
	return *n
}

type smStore struct{ cache *smCache }

func (s *smStore) hit(prefix, key string) int {
	b := smBufs.Get().(*smBuf)
	defer smBufs.Put(b)
	b.blob = append(append(b.blob[:0], prefix...), key...)
	return s.cache.incr(b.String()) // want `b is handed to s.cache, which outlives the call here, but the deferred Put`
}

// A clone is the map's own: silent.
func (s *smStore) hitCloned(prefix, key string) int {
	b := smBufs.Get().(*smBuf)
	defer smBufs.Put(b)
	b.blob = append(append(b.blob[:0], prefix...), key...)
	return s.cache.incr(strings.Clone(b.String()))
}

// Load keeps nothing: silent.
func smLookup(prefix, key string) bool {
	b := smBufs.Get().(*smBuf)
	b.blob = append(append(b.blob[:0], prefix...), key...)
	_, ok := smSeen.Load(b.String())
	smBufs.Put(b)
	return ok
}
