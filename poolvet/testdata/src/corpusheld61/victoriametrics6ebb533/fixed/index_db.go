// Source: https://github.com/VictoriaMetrics/VictoriaMetrics/commit/6ebb533e6841f313e7ef6d912cbf7cd2af6ac210
// ("fix unsafe string", in https://github.com/VictoriaMetrics/VictoriaMetrics/pull/10154,
// which moved the tag filters loops cache to lrucache).
//
// Bug: indexSearch objects come from indexDB.indexSearchPool and carry a
// scratch key buffer is.kb. storeLoopsCountForDateFilter built the cache
// key in is.kb and stored it in the long-lived loopsPerDateTagFilterCache as
// bytesutil.ToUnsafeString(is.kb.B), a string sharing is.kb's memory. The
// cache map keeps that string as its key after the search finishes and the
// indexSearch (with its kb buffer) goes back to the pool, where the next
// search overwrites the bytes under the cached key.
//
// Fix: the stored key is copied with string(is.kb.B); the zero-copy unsafe
// string is used only for the transient GetEntry lookup.
//
// Check: useafterput (PutEntry stores an unsafe string of the pooled
// indexSearch's kb buffer into the cache, which outlives the deferred
// putIndexSearch in searchMetricIDsForDate)
package fixed

import (
	"encoding/binary"
	"sync"
	"time"
	"unsafe"
)

// ByteBuffer is bytesutil.ByteBuffer.
type ByteBuffer struct {
	B []byte
}

func (bb *ByteBuffer) Reset() { bb.B = bb.B[:0] }

// ToUnsafeString is bytesutil.ToUnsafeString.
func ToUnsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Entry is lrucache.Entry.
type Entry interface {
	SizeBytes() uint64
}

// Cache is lrucache.Cache, trimmed.
type Cache struct {
	mu sync.Mutex
	m  map[string]Entry
}

func NewCache() *Cache { return &Cache{m: make(map[string]Entry)} }

func (c *Cache) GetEntry(k string) Entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

func (c *Cache) PutEntry(k string, e Entry) {
	c.mu.Lock()
	c.m[k] = e
	c.mu.Unlock()
}

type tagFilter struct {
	key   []byte
	value []byte
}

func (tf *tagFilter) Marshal(dst []byte) []byte {
	dst = append(dst, tf.key...)
	dst = append(dst, 0)
	return append(dst, tf.value...)
}

type indexDB struct {
	name                       string
	loopsPerDateTagFilterCache *Cache
	indexSearchPool            sync.Pool
}

type indexSearch struct {
	db *indexDB
	kb ByteBuffer

	// deadline in unix timestamp seconds for the given search.
	deadline uint64
}

func (db *indexDB) getIndexSearch(deadline uint64) *indexSearch {
	v := db.indexSearchPool.Get()
	if v == nil {
		v = &indexSearch{
			db: db,
		}
	}
	is := v.(*indexSearch)
	is.deadline = deadline
	return is
}

func (db *indexDB) putIndexSearch(is *indexSearch) {
	is.kb.Reset()
	is.deadline = 0

	db.indexSearchPool.Put(is)
}

type tagFiltersLoops struct {
	loopsCount       int64
	filterLoopsCount int64
	timestamp        uint64
}

func (v *tagFiltersLoops) SizeBytes() uint64 {
	return uint64(unsafe.Sizeof(*v))
}

func appendDateTagFilterCacheKey(dst []byte, indexDBName string, date uint64, tf *tagFilter) []byte {
	dst = append(dst, indexDBName...)
	dst = binary.BigEndian.AppendUint64(dst, date)
	dst = tf.Marshal(dst)
	return dst
}

func (is *indexSearch) getLoopsCountAndTimestampForDateFilter(date uint64, tf *tagFilter) (int64, int64, uint64) {
	is.kb.B = appendDateTagFilterCacheKey(is.kb.B[:0], is.db.name, date, tf)
	e := is.db.loopsPerDateTagFilterCache.GetEntry(ToUnsafeString(is.kb.B))
	if e == nil {
		return 0, 0, 0
	}
	v := e.(*tagFiltersLoops)
	return v.loopsCount, v.filterLoopsCount, v.timestamp
}

func (is *indexSearch) storeLoopsCountForDateFilter(date uint64, tf *tagFilter, loopsCount, filterLoopsCount int64) {
	v := tagFiltersLoops{
		loopsCount:       loopsCount,
		filterLoopsCount: filterLoopsCount,
		timestamp:        uint64(time.Now().Unix()),
	}
	is.kb.B = appendDateTagFilterCacheKey(is.kb.B[:0], is.db.name, date, tf)
	is.db.loopsPerDateTagFilterCache.PutEntry(string(is.kb.B), &v)
}

func (is *indexSearch) updateMetricIDsForDateTagFilters(date uint64, tfs []tagFilter) {
	currentTime := uint64(time.Now().Unix())
	for i := range tfs {
		tf := &tfs[i]
		loopsCount, filterLoopsCount, timestamp := is.getLoopsCountAndTimestampForDateFilter(date, tf)
		if currentTime > timestamp+3600 {
			loopsCount, filterLoopsCount = int64(len(tf.value)), 0
			is.storeLoopsCountForDateFilter(date, tf, loopsCount, filterLoopsCount)
		}
	}
}

func (db *indexDB) searchMetricIDsForDate(date uint64, tfs []tagFilter, deadline uint64) {
	is := db.getIndexSearch(deadline)
	defer db.putIndexSearch(is)
	is.updateMetricIDsForDateTagFilters(date, tfs)
}
