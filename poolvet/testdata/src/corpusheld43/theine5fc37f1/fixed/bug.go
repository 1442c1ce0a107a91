// Package bug reproduces the shape of Yiling-J/theine-go commit 5fc37f1
// ("fix race when using entry pool",
// https://github.com/Yiling-J/theine-go/commit/5fc37f1fd402ca08e63c42610877fc4e442cd1d1):
// with the UseEntryPool option, deleted cache entries are returned to a
// sync.Pool by postDelete. postDelete only zeroed the value; the entry's
// policy flag (removed/deque membership bits) stayed set while the entry sat
// in the pool and was only cleared in setShard after a later Get. Policy and
// buffer code that still held the old pointer kept observing the stale flag
// of the previous use, and the clearing done on reuse raced with them. The
// fix resets value and flag in postDelete, before the entry goes back to the
// pool, and drops the late clearing in setShard.
// Fixed twin: postDelete clears value and flag before the Put.
// Check: noreset (the entry is put back still holding its flag; report at the
// Put in postDelete).
package bug

import (
	"sync"
	"sync/atomic"
)

type Flag struct {
	flags int8
}

func (f *Flag) SetRemoved(v bool) {
	if v {
		f.flags |= 1
	} else {
		f.flags &^= 1
	}
}
func (f *Flag) IsRemoved() bool { return f.flags&1 != 0 }

type Entry[K comparable, V any] struct {
	key          K
	value        V
	weight       atomic.Int64
	policyWeight int64
	expire       atomic.Int64
	flag         Flag
}

type Shard[K comparable, V any] struct {
	mu      sync.RWMutex
	hashmap map[K]*Entry[K, V]
}

func (s *Shard[K, V]) delete(entry *Entry[K, V]) bool {
	if e, ok := s.hashmap[entry.key]; ok && e == entry {
		delete(s.hashmap, entry.key)
		entry.flag.SetRemoved(true)
		return true
	}
	return false
}

type Store[K comparable, V any] struct {
	entryPool *sync.Pool
	policyMu  sync.Mutex
	shard     *Shard[K, V]
}

func NewStore[K comparable, V any](entryPool bool) *Store[K, V] {
	s := &Store[K, V]{shard: &Shard[K, V]{hashmap: make(map[K]*Entry[K, V])}}
	if entryPool {
		s.entryPool = &sync.Pool{New: func() any { return &Entry[K, V]{} }}
	}
	return s
}

func (s *Store[K, V]) setShard(shard *Shard[K, V], key K, value V, cost int64, expire int64) *Entry[K, V] {
	shard.mu.Lock()
	defer shard.mu.Unlock()
	var entry *Entry[K, V]
	if s.entryPool != nil {
		entry = s.entryPool.Get().(*Entry[K, V])
		if entry.key == key {
			// same key reuse might race, create an entry manually
			s.entryPool.Put(entry)
			entry = &Entry[K, V]{}
		}
	} else {
		entry = &Entry[K, V]{}
	}
	entry.key = key
	entry.value = value
	entry.expire.Store(expire)
	entry.weight.Store(cost)
	entry.policyWeight = 0
	shard.hashmap[key] = entry
	return entry
}

func (s *Store[K, V]) postDelete(entry *Entry[K, V]) {
	if s.entryPool != nil {
		var zero V
		entry.value = zero
		entry.flag = Flag{}
		s.entryPool.Put(entry)
	}
}

// removeEntry is called by the eviction path.
func (s *Store[K, V]) removeEntry(entry *Entry[K, V]) {
	s.shard.mu.Lock()
	deleted := s.shard.delete(entry)
	s.shard.mu.Unlock()
	if deleted {
		s.policyMu.Lock()
		s.postDelete(entry)
		s.policyMu.Unlock()
	}
}

func (s *Store[K, V]) Set(key K, value V, cost int64) {
	s.setShard(s.shard, key, value, cost, 0)
}
