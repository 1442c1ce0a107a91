// Source: https://github.com/RoseWrightdev/oryx/commit/1b45ca80dbbf1c36b2945191e488ebac528aec42
// ("fix(statetransfer): resolve tombstone state leakage during pool recycling").
//
// Bug: StateTransfer recycles *snapshotEntry objects through a sync.Pool
// (pools.snapshotEntries). Before every Put it cleared only Key and Data;
// Timestamp and Tombstone kept the values of the last user. In
// decodeFromReader the pooled entry is filled by gob's Decoder, which does
// not transmit zero-valued fields, so an entry that previously held a
// tombstone (Tombstone == true) and is then decoded from a live key keeps
// Tombstone == true and the live key is applied as a delete.
//
// Fix: the commit also clears Timestamp and Tombstone before every Put of a
// snapshotEntry (in streamToEncoder and decodeFromReader).
//
// Check: noreset (the Put at the end of the decode loop returns the entry with
// Timestamp/Tombstone of the decoded record still set; the next Get+Decode
// sees them).
package fixed

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"io"
	"log/slog"
	"sync"
)

type Key = string

const subBucketCount = 64

const shardCount = 128

type Value struct {
	Data      []byte
	Timestamp int64
	NodeID    string
	Tombstone bool
}

type shard struct {
	buckets [subBucketCount]map[Key]Value
	mu      sync.RWMutex
}

type shardedMap [shardCount]*shard

// SetRequest and DeleteRequest stand in for the generated protobuf types
// (pb.SetRequest / pb.DeleteRequest).
type SetRequest struct {
	Key       string
	Value     []byte
	Timestamp int64
	NodeId    string
}

func (x *SetRequest) Reset() { *x = SetRequest{} }

type DeleteRequest struct {
	Key       string
	Timestamp int64
	NodeId    string
}

func (x *DeleteRequest) Reset() { *x = DeleteRequest{} }

type StateWriter interface {
	ApplySet(req *SetRequest) error
	ApplyDelete(req *DeleteRequest) error
}

type snapshotEntry struct {
	Key       Key
	Data      []byte
	Timestamp int64
	Tombstone bool
}

type pools struct {
	setRequests     sync.Pool
	deleteRequests  sync.Pool
	snapshotEntries sync.Pool
}

func newPools() *pools {
	return &pools{
		setRequests: sync.Pool{
			New: func() any { return &SetRequest{} },
		},
		deleteRequests: sync.Pool{
			New: func() any { return &DeleteRequest{} },
		},
		snapshotEntries: sync.Pool{
			New: func() any { return &snapshotEntry{} },
		},
	}
}

// StateTransfer coordinates the exchange of local and remote database state.
type StateTransfer struct {
	pools  *pools
	hm     *shardedMap
	writer StateWriter
}

func newStateTransfer(pools *pools, hm *shardedMap, writer StateWriter) *StateTransfer {
	return &StateTransfer{
		pools:  pools,
		hm:     hm,
		writer: writer,
	}
}

// ExportState serializes the entire shardedMap into a byte slice.
func (st *StateTransfer) ExportState() []byte {
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	if err := st.streamToEncoder(enc); err != nil {
		slog.Error("Failed to encode local state for cluster sync", "error", err)
		return nil
	}
	return buf.Bytes()
}

// ImportState decodes a raw byte slice and applies all received keys.
func (st *StateTransfer) ImportState(buf []byte) {
	if len(buf) == 0 {
		return
	}
	reader := bytes.NewReader(buf)
	if err := st.decodeFromReader(reader); err != nil {
		slog.Error("Failed to decode remote state from cluster sync", "error", err)
	}
}

// streamToEncoder serializes all key-value entries across all shards.
func (st *StateTransfer) streamToEncoder(enc *gob.Encoder) error {
	for i := range shardCount {
		shard := st.hm[i]
		shard.mu.RLock()
		for b := range subBucketCount {
			for k, v := range shard.buckets[b] {
				entry := st.pools.snapshotEntries.Get().(*snapshotEntry)
				entry.Key = k
				entry.Data = v.Data
				entry.Timestamp = v.Timestamp
				entry.Tombstone = v.Tombstone

				if err := enc.Encode(entry); err != nil {
					shard.mu.RUnlock()
					entry.Key = ""
					entry.Data = nil
					entry.Timestamp = 0
					entry.Tombstone = false
					st.pools.snapshotEntries.Put(entry)
					return err
				}
				entry.Key = ""
				entry.Data = nil
				entry.Timestamp = 0
				entry.Tombstone = false
				st.pools.snapshotEntries.Put(entry)
			}
		}
		shard.mu.RUnlock()
	}
	return nil
}

// decodeFromReader reads snapshot entries and writes them to the storage engine.
func (st *StateTransfer) decodeFromReader(r io.Reader) error {
	dec := gob.NewDecoder(r)
	count := 0
	for {
		entry := st.pools.snapshotEntries.Get().(*snapshotEntry)
		if err := dec.Decode(entry); err != nil {
			entry.Key = ""
			entry.Data = nil
			entry.Timestamp = 0
			entry.Tombstone = false
			st.pools.snapshotEntries.Put(entry)
			if err == io.EOF {
				break
			}
			return fmt.Errorf("failed to decode snapshot entry: %w", err)
		}

		if entry.Tombstone {
			req := st.pools.deleteRequests.Get().(*DeleteRequest)
			req.Key = entry.Key
			req.Timestamp = entry.Timestamp
			err := st.writer.ApplyDelete(req)
			req.Reset()
			st.pools.deleteRequests.Put(req)
			if err != nil {
				entry.Key = ""
				entry.Data = nil
				entry.Timestamp = 0
				entry.Tombstone = false
				st.pools.snapshotEntries.Put(entry)
				return err
			}
		} else {
			req := st.pools.setRequests.Get().(*SetRequest)
			req.Key = entry.Key
			req.Value = entry.Data
			req.Timestamp = entry.Timestamp
			err := st.writer.ApplySet(req)
			req.Reset()
			st.pools.setRequests.Put(req)
			if err != nil {
				entry.Key = ""
				entry.Data = nil
				entry.Timestamp = 0
				entry.Tombstone = false
				st.pools.snapshotEntries.Put(entry)
				return err
			}
		}

		entry.Key = ""
		entry.Data = nil
		entry.Timestamp = 0
		entry.Tombstone = false
		st.pools.snapshotEntries.Put(entry)
		count++
	}

	if count > 0 {
		slog.Info("Merged remote state from cluster member", "entries", count)
	}
	return nil
}
