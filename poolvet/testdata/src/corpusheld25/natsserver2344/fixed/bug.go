// Package bug reproduces the shape of nats-io/nats-server#2344
// (https://github.com/nats-io/nats-server/pull/2344, commit 960c45df8 "Use of
// sync.Pool for filestore could cause msg corruption"): message blocks loaded
// their contents into a block buffer taken from a sync.Pool
// (newBlkBuffer/freeBlkBuffer), and a stored message returned by a cache
// lookup is a set of sub-slices of that buffer (header and payload). When a
// reader scans a block linearly and reaches its last message, msgForSeq
// expires the block cache right after fetching the message, and the expiry
// hands the block buffer back to the pool. The message returned to the
// caller (a consumer about to deliver it) still points into the pooled
// buffer, which the next block load overwrites: corrupted messages. The fix
// removed the pooling of block buffers.
//
// This is the fixed twin: block buffers are plain allocations that the
// garbage collector reclaims once no message refers to them.
//
// Check: useafterput (fixed twin, no report expected).
package bug

import (
	"encoding/binary"
	"errors"
	"sync"
	"time"
)

const defaultBlockSize = 8 * 1024

var errNoCache = errors.New("no message cache")

// newBlkBuffer allocates a block buffer.
func newBlkBuffer(sz int) []byte {
	if sz < defaultBlockSize {
		sz = defaultBlockSize
	}
	return make([]byte, 0, sz)
}

type cache struct {
	buf []byte
	idx []uint32
	off int
}

type fileStoredMsg struct {
	subj string
	hdr  []byte
	msg  []byte
	seq  uint64
	ts   int64
}

type msgBlock struct {
	mu    sync.RWMutex
	first uint64
	last  uint64
	cache *cache
	llts  int64
	llseq uint64
	raw   []byte
}

// loadMsgsWithLock fills the cache from the block file contents.
func (mb *msgBlock) loadMsgsWithLock() {
	buf := newBlkBuffer(len(mb.raw))
	buf = append(buf, mb.raw...)
	idx := make([]uint32, 0, mb.last-mb.first+1)
	for i := 0; i+8 <= len(buf); {
		idx = append(idx, uint32(i))
		i += int(binary.LittleEndian.Uint32(buf[i:]))
	}
	mb.cache = &cache{buf: buf, idx: idx}
}

// msgFromBuf parses one record; the returned slices alias buf.
func msgFromBuf(buf []byte) (string, []byte, []byte, uint64, int64) {
	rl := int(binary.LittleEndian.Uint32(buf[0:]))
	seq := uint64(binary.LittleEndian.Uint32(buf[4:]))
	data := buf[8:rl]
	slen := int(data[0])
	hl := int(data[1])
	subj := string(data[2 : 2+slen])
	bi := 2 + slen
	hdr := data[bi : bi+hl : bi+hl]
	msg := data[bi+hl : len(data) : len(data)]
	return subj, hdr, msg, seq, time.Now().UnixNano()
}

func (mb *msgBlock) cacheLookupWithLock(seq uint64) (*fileStoredMsg, error) {
	if mb.cache == nil || mb.cache.buf == nil || seq < mb.first || seq > mb.last {
		return nil, errNoCache
	}
	bi := int(mb.cache.idx[seq-mb.first]) - mb.cache.off
	mb.llts = time.Now().UnixNano()
	mb.llseq = seq
	subj, hdr, msg, mseq, ts := msgFromBuf(mb.cache.buf[bi:])
	return &fileStoredMsg{subj: subj, hdr: hdr, msg: msg, seq: mseq, ts: ts}, nil
}

func (mb *msgBlock) fetchMsg(seq uint64) (*fileStoredMsg, error) {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	if mb.cache == nil || mb.cache.buf == nil {
		mb.loadMsgsWithLock()
	}
	return mb.cacheLookupWithLock(seq)
}

// expireCacheLocked drops the core message buffer of the cache.
func (mb *msgBlock) expireCacheLocked() {
	if mb.cache == nil {
		return
	}
	mb.cache.off += len(mb.cache.buf)
	mb.cache.buf = nil
}

type fileStore struct {
	mu     sync.RWMutex
	blks   []*msgBlock
	lmb    *msgBlock
	closed bool
}

func (fs *fileStore) selectMsgBlock(seq uint64) *msgBlock {
	for _, mb := range fs.blks {
		if seq >= mb.first && seq <= mb.last {
			return mb
		}
	}
	return nil
}

// msgForSeq returns the message for seq.
func (fs *fileStore) msgForSeq(seq uint64) (*fileStoredMsg, error) {
	fs.mu.RLock()
	mb, lmb := fs.selectMsgBlock(seq), fs.lmb
	fs.mu.RUnlock()
	if mb == nil {
		return nil, errNoCache
	}

	// A linear scan reading the last message of a block that is not the
	// last one: try to expire the cache.
	mb.mu.RLock()
	shouldTryExpire := mb != lmb && seq == mb.last && mb.llseq == seq-1
	mb.mu.RUnlock()

	fsm, err := mb.fetchMsg(seq)
	if err != nil {
		return nil, err
	}

	if shouldTryExpire {
		mb.mu.Lock()
		mb.llts = 0
		mb.expireCacheLocked()
		mb.mu.Unlock()
	}

	return fsm, nil
}

// LoadMsg returns the parts of the message with sequence seq.
func (fs *fileStore) LoadMsg(seq uint64) (string, []byte, []byte, int64, error) {
	sm, err := fs.msgForSeq(seq)
	if sm != nil {
		return sm.subj, sm.hdr, sm.msg, sm.ts, nil
	}
	return "", nil, nil, 0, err
}
