// Source: https://github.com/dgraph-io/dgraph/pull/1148
// (commit https://github.com/dgraph-io/dgraph/commit/01e1564f558cb3d42dfc1aaf617e8da61dd6c872,
// "Modify/posting pool (#1148)": "don't return emptylist to pool")
//
// Bug: posting.List objects are reference counted and recycled through
// listPool; their *protos.PostingList goes to postingListPool. When a
// predicate is deleted, List.delete points l.plist at the package-level
// emptyList, which is shared by every deleted list. When such a list's
// refcount drops to zero, decr() truncates l.plist and puts it into
// postingListPool, so the global emptyList ends up in the pool. The next
// getNew takes it from the pool and unmarshals another key's posting list
// into it, so every list that still points at emptyList (and every later
// delete) sees that key's postings.
// Fix: do not return emptyList to the pool (guard the Put with
// l.plist != emptyList).
//
// Check: useafterput (at postingListPool.Put(l.plist) in decr: the object can
// be the global emptyList, which stays referenced by other lists and by the
// emptyList variable after it went back to the pool)
package bug

import (
	"encoding/binary"
	"errors"
	"sync"
	"sync/atomic"
)

type Posting struct {
	Uid   uint64
	Value []byte
	Label string
}

type PostingList struct {
	Postings []*Posting
	Uids     []uint64
}

// Unmarshal decodes a list of uids (trimmed protobuf decoding).
func (pl *PostingList) Unmarshal(data []byte) error {
	for len(data) > 0 {
		uid, n := binary.Uvarint(data)
		if n <= 0 {
			return errors.New("bad posting list")
		}
		pl.Uids = append(pl.Uids, uid)
		data = data[n:]
	}
	return nil
}

var emptyList = &PostingList{}

type List struct {
	sync.RWMutex
	key       []byte
	plist     *PostingList
	mlayer    []*Posting // mutations
	refcount  int32
	deleteAll int32
}

func (l *List) incr() int32 { return atomic.AddInt32(&l.refcount, 1) }

func (l *List) decr() {
	// Locking is just to ensure that anything else has finished working on this
	// list before we push it to listPool.
	l.Lock()
	l.Unlock()
	val := atomic.AddInt32(&l.refcount, -1)
	if val < 0 {
		panic("List reference should never be less than zero")
	}
	if val > 0 {
		return
	}

	for _, p := range l.plist.Postings {
		postingPool.Put(p)
	}
	l.plist.Postings = l.plist.Postings[:0]
	l.plist.Uids = l.plist.Uids[:0]
	postingListPool.Put(l.plist) // want `useafterput`
	listPool.Put(l)
}

var postingPool = sync.Pool{
	New: func() interface{} {
		return &Posting{}
	},
}

var postingListPool = sync.Pool{
	New: func() interface{} {
		return &PostingList{}
	},
}

var listPool = sync.Pool{
	New: func() interface{} {
		return &List{}
	},
}

// KV is the badger store, trimmed.
type KV interface {
	Get(key []byte) ([]byte, error)
}

func getNew(key []byte, pstore KV) *List {
	l := listPool.Get().(*List)
	*l = List{}
	l.key = key
	l.refcount = 1
	l.Lock()
	defer l.Unlock()

	val, err := pstore.Get(l.key)
	if err != nil {
		panic(err)
	}

	l.plist = postingListPool.Get().(*PostingList)
	if val != nil {
		if err := l.plist.Unmarshal(val); err != nil {
			panic("Unable to Unmarshal PostingList from store")
		}
	}
	return l
}

func (l *List) delete() {
	l.Lock()
	defer l.Unlock()
	l.plist = emptyList
	l.mlayer = l.mlayer[:0] // Clear the mutation layer.
	atomic.StoreInt32(&l.deleteAll, 1)
}

// Uids returns the uids of the immutable layer.
func (l *List) Uids() []uint64 {
	l.RLock()
	defer l.RUnlock()
	return append([]uint64(nil), l.plist.Uids...)
}
