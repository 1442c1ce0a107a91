// Source: https://github.com/dgraph-io/dgraph/commit/29c2addf369e1a665dff7b8a98ef82ee0032eb3b
// (fixes https://github.com/dgraph-io/dgraph/issues/3861 and
// https://github.com/dgraph-io/dgraph/issues/3885)
//
// Bug: posting.List objects live in the transaction's LocalCache.plists map
// and are handed out by LocalCache.Get to every query and mutation running in
// the same transaction. LocalCache.UpdateDeltasAndDiscardLists (called by
// Txn.Update, e.g. deferred in the raft mutation path) called pl.release() on
// every cached list, which puts all of the list's *pb.Posting objects back
// into postingPool. Other callers still held the *List (and the postings
// returned by Iterate), so postings that were already in the pool were read
// and overwritten by NewPosting for unrelated edges, causing the nil pointer
// panics of #3861/#3885.
// Fix: do not call pl.release() in UpdateDeltasAndDiscardLists ("LocalCache is
// still being used by other callers for the same transaction, who might be
// holding references to posting lists").
//
// Check: useafterput (at the pl.release() call in UpdateDeltasAndDiscardLists:
// it Puts the postings of lists that stay reachable by other holders of the
// same *List, which keep iterating them after the Put)
package bug

import (
	"sync"
)

const (
	Set uint32 = 0x01
	Del uint32 = 0x02
)

// pb.Posting / pb.PostingList, trimmed.
type Posting struct {
	Uid     uint64
	Value   []byte
	LangTag []byte
	Op      uint32
	StartTs uint64
}

type PostingList struct {
	Postings []*Posting
}

type DirectedEdge struct {
	ValueId uint64
	Value   []byte
	Lang    string
	Del     bool
}

// List stores the in-memory representation of a posting list.
type List struct {
	sync.RWMutex
	key         []byte
	plist       *PostingList
	mutationMap map[uint64]*PostingList
	maxTs       uint64
}

func (l *List) maxVersion() uint64 {
	l.RLock()
	defer l.RUnlock()
	return l.maxTs
}

var postingPool = &sync.Pool{
	New: func() interface{} {
		return &Posting{}
	},
}

// NewPosting takes the given edge and returns its equivalent representation as a posting.
func NewPosting(t *DirectedEdge) *Posting {
	op := Set
	if t.Del {
		op = Del
	}
	p := postingPool.Get().(*Posting)
	*p = Posting{
		Uid:     t.ValueId,
		Value:   t.Value,
		LangTag: []byte(t.Lang),
		Op:      op,
	}
	return p
}

func (l *List) release() {
	fromList := func(list *PostingList) {
		for _, p := range list.Postings {
			postingPool.Put(p)
		}
	}
	if l.plist != nil {
		fromList(l.plist)
	}
	for _, plist := range l.mutationMap {
		fromList(plist)
	}
	l.plist = nil
	l.mutationMap = nil
}

func (l *List) addMutation(startTs uint64, t *DirectedEdge) {
	l.Lock()
	defer l.Unlock()
	mpost := NewPosting(t)
	mpost.StartTs = startTs
	plist, ok := l.mutationMap[startTs]
	if !ok {
		plist = &PostingList{}
		l.mutationMap[startTs] = plist
	}
	for i, prev := range plist.Postings {
		if prev.Uid == mpost.Uid {
			plist.Postings[i] = mpost
			return
		}
	}
	plist.Postings = append(plist.Postings, mpost)
}

// getMutation returns a copy of the posting list mutation stored internally.
func (l *List) getMutation(startTs uint64) []*Posting {
	l.RLock()
	defer l.RUnlock()
	if pl, ok := l.mutationMap[startTs]; ok {
		return append([]*Posting(nil), pl.Postings...)
	}
	return nil
}

// Iterate calls f for every posting visible at readTs.
func (l *List) Iterate(readTs uint64, f func(obj *Posting) error) error {
	l.RLock()
	defer l.RUnlock()
	if l.plist != nil {
		for _, p := range l.plist.Postings {
			if err := f(p); err != nil {
				return err
			}
		}
	}
	if pl, ok := l.mutationMap[readTs]; ok {
		for _, p := range pl.Postings {
			if err := f(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// LocalCache stores a local copy of the posting lists of one transaction.
type LocalCache struct {
	sync.RWMutex

	startTs     uint64
	deltas      map[string][]*Posting
	maxVersions map[string]uint64

	// plists are posting lists in memory. They can be discarded to reclaim space.
	plists map[string]*List
}

func NewLocalCache(startTs uint64) *LocalCache {
	return &LocalCache{
		startTs:     startTs,
		deltas:      make(map[string][]*Posting),
		plists:      make(map[string]*List),
		maxVersions: make(map[string]uint64),
	}
}

func (lc *LocalCache) getNoStore(key string) *List {
	lc.RLock()
	defer lc.RUnlock()
	if l, ok := lc.plists[key]; ok {
		return l
	}
	return nil
}

func (lc *LocalCache) SetIfAbsent(key string, updated *List) *List {
	lc.Lock()
	defer lc.Unlock()
	if pl, ok := lc.plists[key]; ok {
		return pl
	}
	lc.plists[key] = updated
	return updated
}

// Get retrieves the cached version of the list associated with the given key.
func (lc *LocalCache) Get(key []byte) *List {
	skey := string(key)
	if pl := lc.getNoStore(skey); pl != nil {
		return pl
	}
	pl := &List{
		key:         key,
		mutationMap: make(map[uint64]*PostingList),
		plist:       new(PostingList),
	}
	return lc.SetIfAbsent(skey, pl)
}

// UpdateDeltasAndDiscardLists updates the delta cache before removing the stored posting lists.
func (lc *LocalCache) UpdateDeltasAndDiscardLists() {
	lc.Lock()
	defer lc.Unlock()
	if len(lc.plists) == 0 {
		return
	}

	for key, pl := range lc.plists {
		data := pl.getMutation(lc.startTs)
		if len(data) > 0 {
			lc.deltas[key] = data
		}
		lc.maxVersions[key] = pl.maxVersion()
		pl.release() // want `useafterput`
	}
	lc.plists = make(map[string]*List)
}

type Txn struct {
	StartTs uint64
	cache   *LocalCache
}

func NewTxn(startTs uint64) *Txn {
	return &Txn{StartTs: startTs, cache: NewLocalCache(startTs)}
}

// Update calls UpdateDeltasAndDiscardLists on the local cache.
func (txn *Txn) Update() {
	txn.cache.UpdateDeltasAndDiscardLists()
}

// applyMutation is the raft mutation path: it ends with a deferred txn.Update.
func applyMutation(txn *Txn, key []byte, edges []*DirectedEdge) {
	defer txn.Update()
	pl := txn.cache.Get(key)
	for _, e := range edges {
		pl.addMutation(txn.StartTs, e)
	}
}

// processQuery runs concurrently in the same transaction and keeps using the
// *List it got from the cache.
func processQuery(txn *Txn, key []byte) []uint64 {
	pl := txn.cache.Get(key)
	var uids []uint64
	_ = pl.Iterate(txn.StartTs, func(p *Posting) error {
		uids = append(uids, p.Uid)
		return nil
	})
	return uids
}
