// Source: https://github.com/RoseWrightdev/oryx/issues/107
// (also https://github.com/RoseWrightdev/oryx/issues/59; fixed by
// https://github.com/RoseWrightdev/oryx/pull/128, commit
// a796a364c62dbbe55f5562d1e1516e42c3736d95 "fix(core/writer): copy value
// slice in ApplySet before storing")
//
// Bug: engine.Set leases a *pb.SetRequest from the engine's sync.Pool, points
// req.Value at the value slice, and calls StorageWriter.ApplySet, which
// stores req.Value directly into the sharded map as the live database
// record. Set then Resets the request and puts it back into the pool, so the
// stored record still aliases the slice held by the pooled request and a
// later, unrelated write (the next user of the pooled request / buffer) can
// scribble over an already-stored value ("SetRequest sync.Pool reset causes
// slice corruption in engine.Set").
// Fix: ApplySet copies req.Value (cloneBytes) before building the kv.Value,
// so the stored record never aliases the pooled request's slice.
//
// Check: useafterput (at eng.pools.setRequests.Put(req) in engine.Set: the
// request's Value field was stored into the long-lived sharded map by
// ApplySet and is still referenced from there when the request goes back to
// the pool)
package fixed

import (
	"hash/fnv"
	"sync"
)

// SetRequest stands in for the generated protobuf message pb.SetRequest.
type SetRequest struct {
	Key       string
	Value     []byte
	Timestamp int64
	NodeId    string
}

// Reset mirrors the generated proto Reset: it zeroes the message.
func (x *SetRequest) Reset() {
	*x = SetRequest{}
}

type Key = string

type HashKey = uint64

type NodeID string

type Value struct {
	Data      []byte
	Timestamp int64
	NodeID    string
	Tombstone bool
}

func HashFunc(key string) HashKey {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()
}

// ShardedMap is a trimmed version of core/hashmap.ShardedMap.
type ShardedMap struct {
	mu   sync.RWMutex
	data map[HashKey]map[Key]*Value
}

func NewShardedMap() *ShardedMap {
	return &ShardedMap{data: map[HashKey]map[Key]*Value{}}
}

// StoreLWW stores val under key using last-write-wins conflict resolution.
func (sm *ShardedMap) StoreLWW(key Key, hash HashKey, val Value) bool {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	bucket := sm.data[hash]
	if bucket == nil {
		bucket = map[Key]*Value{}
		sm.data[hash] = bucket
	}
	if existing, ok := bucket[key]; ok {
		if existing.Timestamp > val.Timestamp {
			return false
		}
		if existing.Timestamp == val.Timestamp && existing.NodeID >= val.NodeID {
			return false
		}
	}
	v := val
	bucket[key] = &v
	return true
}

// cloneBytes returns a private copy of b, or nil when b is nil so that an
// unset value stays distinguishable from an explicitly empty one.
func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	out := make([]byte, len(b))
	copy(out, b)
	return out
}

// StorageWriter handles applying mutations to the storage engine.
type StorageWriter struct {
	hm *ShardedMap
}

func NewStorageWriter(hm *ShardedMap) *StorageWriter {
	return &StorageWriter{hm: hm}
}

// ApplySet updates the in-memory store after performing LWW conflict
// resolution.
func (sw *StorageWriter) ApplySet(req *SetRequest) error {
	hash := HashFunc(req.Key)

	val := Value{
		Data:      cloneBytes(req.Value),
		Timestamp: req.Timestamp,
		NodeID:    req.NodeId,
		Tombstone: false,
	}

	if !sw.hm.StoreLWW(req.Key, hash, val) {
		return nil // Stale update ignored under LWW rules
	}
	return nil
}

type pools struct {
	setRequests sync.Pool
}

func newPools() *pools {
	return &pools{
		setRequests: sync.Pool{
			New: func() any { return &SetRequest{} },
		},
	}
}

type engine struct {
	hm     *ShardedMap
	sw     *StorageWriter
	pools  *pools
	nodeID NodeID
	now    func() int64
}

func NewEngine(nodeID NodeID, now func() int64) *engine {
	eng := &engine{
		hm:     NewShardedMap(),
		pools:  newPools(),
		nodeID: nodeID,
		now:    now,
	}
	eng.sw = NewStorageWriter(eng.hm)
	return eng
}

func (eng *engine) Set(key Key, value []byte) error {
	ts := eng.now()

	req := eng.pools.setRequests.Get().(*SetRequest)
	req.Key = key
	req.Value = value
	req.Timestamp = ts
	req.NodeId = string(eng.nodeID)

	err := eng.sw.ApplySet(req)
	req.Reset()
	eng.pools.setRequests.Put(req)
	return err
}
