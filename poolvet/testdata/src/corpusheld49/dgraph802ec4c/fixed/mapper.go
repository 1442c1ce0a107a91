// Source: https://github.com/dgraph-io/dgraph/commit/802ec4c39dc99feaad3e344f46e6b31a412fd2e3
// ("Fix for the breakage in the previous commit. Reset MapEntry after getting
// from pool.")
//
// Bug: the bulk loader's mapper keeps *pb.MapEntry objects in a sync.Pool
// (mePool). writeMapEntriesToFile marshals every entry and puts it back
// without clearing it. addMapEntry takes an entry from the pool and only
// overwrites Key, then sets either Posting (value/facet postings) or Uid
// (plain REF postings). A recycled entry used for a REF posting therefore
// keeps the Posting of its previous user (and an entry used for a value
// posting keeps the old Uid): less() sorts by the stale Posting.Uid and the
// stale fields are marshalled into the map files, breaking the bulk load.
// Fix: reset the whole entry after getting it from the pool:
// *me = pb.MapEntry{Key: key}.
//
// Check: noreset (at the mePool.Put in writeMapEntriesToFile: the entry goes
// back still holding Posting/Uid, and the Get side only overwrites Key)
package fixed

import (
	"bytes"
	"encoding/binary"
	"io"
	"sort"
	"sync"
	"sync/atomic"
)

type PostingType int32

const (
	Posting_REF PostingType = iota
	Posting_VALUE
)

type Facet struct {
	Key   string
	Value []byte
}

type Posting struct {
	Uid         uint64
	Value       []byte
	PostingType PostingType
	Facets      []*Facet
}

type MapEntry struct {
	Key     []byte
	Uid     uint64
	Posting *Posting
}

func (me *MapEntry) Marshal() []byte {
	var buf []byte
	buf = binary.AppendUvarint(buf, uint64(len(me.Key)))
	buf = append(buf, me.Key...)
	buf = binary.AppendUvarint(buf, me.Uid)
	if me.Posting != nil {
		buf = binary.AppendUvarint(buf, me.Posting.Uid)
		buf = append(buf, me.Posting.Value...)
	}
	return buf
}

func (me *MapEntry) Size() int { return len(me.Marshal()) }

type progress struct {
	mapEdgeCount int64
}

type shardState struct {
	entries     []*MapEntry
	encodedSize uint64
	mu          sync.Mutex // Allow only 1 write per shard at a time.
}

type mapper struct {
	prog   *progress
	out    io.Writer
	shards []shardState // shard is based on predicate
	mePool *sync.Pool
}

func newMapper(numShards int, out io.Writer) *mapper {
	return &mapper{
		prog:   &progress{},
		out:    out,
		shards: make([]shardState, numShards),
		mePool: &sync.Pool{
			New: func() interface{} {
				return &MapEntry{}
			},
		},
	}
}

func less(lhs, rhs *MapEntry) bool {
	if keyCmp := bytes.Compare(lhs.Key, rhs.Key); keyCmp != 0 {
		return keyCmp < 0
	}
	lhsUID := lhs.Uid
	rhsUID := rhs.Uid
	if lhs.Posting != nil {
		lhsUID = lhs.Posting.Uid
	}
	if rhs.Posting != nil {
		rhsUID = rhs.Posting.Uid
	}
	return lhsUID < rhsUID
}

func (m *mapper) writeMapEntriesToFile(entries []*MapEntry, encodedSize uint64, shardIdx int) {
	defer m.shards[shardIdx].mu.Unlock() // Locked by caller.

	sort.Slice(entries, func(i, j int) bool {
		return less(entries[i], entries[j])
	})

	sizeBuf := make([]byte, binary.MaxVarintLen64)
	for _, me := range entries {
		n := binary.PutUvarint(sizeBuf, uint64(me.Size()))
		if _, err := m.out.Write(sizeBuf[:n]); err != nil {
			panic(err)
		}
		meBuf := me.Marshal()
		if _, err := m.out.Write(meBuf); err != nil {
			panic(err)
		}
		m.mePool.Put(me)
	}
}

func (m *mapper) addMapEntry(key []byte, p *Posting, shard int) {
	atomic.AddInt64(&m.prog.mapEdgeCount, 1)

	me := m.mePool.Get().(*MapEntry)
	*me = MapEntry{Key: key}

	if p.PostingType != Posting_REF || len(p.Facets) > 0 {
		me.Posting = p
	} else {
		me.Uid = p.Uid
	}
	sh := &m.shards[shard]

	sh.entries = append(sh.entries, me)
	sh.encodedSize += uint64(me.Size())
}

func (m *mapper) flush(mapBufSize uint64) {
	for i := range m.shards {
		sh := &m.shards[i]
		if sh.encodedSize >= mapBufSize {
			sh.mu.Lock() // One write at a time.
			go m.writeMapEntriesToFile(sh.entries, sh.encodedSize, i)
			// Clear the entries and encodedSize for the next batch.
			sh.entries = make([]*MapEntry, 0, 32)
			sh.encodedSize = 0
		}
	}
}
