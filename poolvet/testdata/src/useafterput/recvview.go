package useafterput

import (
	"sync"
	"unsafe"
)

// A pooled search object builds a cache key in its own buffer and keeps an
// unsafe string over that buffer in a long-lived cache: when the object
// goes back to the pool, the next user rewrites the key in place
// (VictoriaMetrics 6ebb533).
type rvKeyBuf struct{ B []byte }

type rvCache struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *rvCache) put(k string, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

type rvDB struct {
	cache    *rvCache
	searches sync.Pool
}

type rvSearch struct {
	db *rvDB
	kb rvKeyBuf
	// vals holds what callers passed: not the search's own buffer.
	vals [][]byte
}

func (db *rvDB) search(name string) {
	is, _ := db.searches.Get().(*rvSearch)
	if is == nil {
		is = &rvSearch{db: db}
	}
	is.remember(name, 1)
	is.kb.B = is.kb.B[:0]
	db.searches.Put(is)
}

func (is *rvSearch) remember(name string, n int) {
	is.kb.B = append(is.kb.B[:0], name...)
	is.db.cache.put(unsafe.String(unsafe.SliceData(is.kb.B), len(is.kb.B)), n) // want `a view of is's memory \(a string or slice over its buffer\) goes to is.db.cache`
}

// A copied key is the cache's own: silent.
func (is *rvSearch) rememberCopy(name string, n int) {
	is.kb.B = append(is.kb.B[:0], name...)
	is.db.cache.put(string(is.kb.B), n)
}

// A value the caller passed, kept by the search, is not its buffer: silent.
func (is *rvSearch) rememberVal(i int) {
	is.db.cache.put(unsafe.String(unsafe.SliceData(is.vals[i]), len(is.vals[i])), i)
}
