// Source: https://github.com/RoseWrightdev/oryx/commit/5ae5ca943d934ea9da24b9a6e739b97a7cc8604b
// ("fix: resolve memory pool corruption and data races by correctly managing
// slice and map lifecycle in engine, server, and syncer modules"; the project
// was called dkv at the time)
//
// Bug: Syncer.preparePullRequest takes a map[ShardID]ShardDigest from the
// bucketMaps sync.Pool (its values are pre-allocated []Digest slices that
// FillDigests copies into), and stores each of those slices into the pooled
// *pb.ShardDigests messages of the outgoing PullRequest (sd.SubHashes =
// hashes). A deferred closure puts the map back into the pool when
// preparePullRequest returns, i.e. before performSync sends the request, so
// another sync (or the server's Pull) can Get the same map and overwrite the
// digest slices while the request still references them: corrupted digests
// and a data race.
// Fix: preparePullRequest returns the pooled maps and performSync defers
// their Put until after the Pull RPC and cleanupPullRequest are done.
//
// Check: useafterput (at sd.SubHashes = hashes in preparePullRequest: a slice
// owned by the pooled map is stored in the request, which outlives the
// function whose deferred Put returns the map to the pool)
package bug

import (
	"context"
	"sync"
	"time"
)

type ShardID = int32

type Digest = uint64

type RootDigest = uint64

type ShardDigest = []Digest

type NodeID string

const subBucketCount = 64

const shardCount = 128

// ShardDigests and PullRequest stand in for the generated protobuf messages.
type ShardDigests struct {
	SubHashes []uint64
}

type PullRequest struct {
	NodeId       string
	RootDigest   uint64
	ShardDigests map[uint32]uint64
	SubDigests   map[uint32]*ShardDigests
}

type PullResponse struct{}

type shard struct {
	subDigests  [subBucketCount]Digest
	shardDigest Digest
	mu          sync.RWMutex
}

type shardedMap [shardCount]*shard

// FillShardDigests populates the provided map with all shard IDs and their
// single intermediate XOR digests.
func (sm *shardedMap) FillShardDigests(dst map[ShardID]Digest) {
	for i := range shardCount {
		shard := sm[i]
		shard.mu.RLock()
		dst[ShardID(i)] = shard.shardDigest
		shard.mu.RUnlock()
	}
}

// RootDigest returns a single XOR hash of the entire database state.
func (sm *shardedMap) RootDigest() RootDigest {
	var root RootDigest
	for i := range shardCount {
		shard := sm[i]
		shard.mu.RLock()
		root ^= shard.shardDigest
		shard.mu.RUnlock()
	}
	return root
}

// FillDigests populates the provided map with all shard IDs and their current
// sub-bucket hashes.
func (sm *shardedMap) FillDigests(dst map[ShardID]ShardDigest) {
	for i := range shardCount {
		shard := sm[i]
		shard.mu.RLock()
		copy(dst[ShardID(i)], shard.subDigests[:])
		shard.mu.RUnlock()
	}
}

type pools struct {
	pullRequests sync.Pool
	shardDigests sync.Pool
	shardMaps    sync.Pool
	bucketMaps   sync.Pool
}

func newPools() *pools {
	return &pools{
		pullRequests: sync.Pool{
			New: func() any {
				return &PullRequest{
					ShardDigests: make(map[uint32]uint64, shardCount),
					SubDigests:   make(map[uint32]*ShardDigests, shardCount),
				}
			},
		},
		shardDigests: sync.Pool{
			New: func() any { return &ShardDigests{} },
		},
		shardMaps: sync.Pool{
			New: func() any { return make(map[ShardID]Digest) },
		},
		bucketMaps: sync.Pool{
			New: func() any {
				m := make(map[ShardID]ShardDigest, shardCount)
				for i := range shardCount {
					m[ShardID(i)] = make([]Digest, subBucketCount)
				}
				return m
			},
		},
	}
}

type pullClient interface {
	Pull(ctx context.Context, in *PullRequest) (*PullResponse, error)
}

type Syncer struct {
	hm     *shardedMap
	pools  *pools
	nodeID NodeID
	dial   func() (pullClient, error)
}

func (s *Syncer) performSync() {
	client, err := s.dial()
	if err != nil {
		return
	}

	req := s.pools.pullRequests.Get().(*PullRequest)
	s.preparePullRequest(req)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	_, err = client.Pull(ctx, req)
	s.cleanupPullRequest(req)

	if err != nil {
		return
	}
}

func (s *Syncer) preparePullRequest(req *PullRequest) {
	localShards := s.pools.shardMaps.Get().(map[ShardID]Digest)
	localBuckets := s.pools.bucketMaps.Get().(map[ShardID]ShardDigest)
	defer func() {
		s.pools.shardMaps.Put(localShards)
		s.pools.bucketMaps.Put(localBuckets)
	}()

	s.hm.FillShardDigests(localShards)
	s.hm.FillDigests(localBuckets)

	req.NodeId = string(s.nodeID)
	req.RootDigest = uint64(s.hm.RootDigest())

	// Prepare Shard Digests
	for k := range req.ShardDigests {
		delete(req.ShardDigests, k)
	}
	for id, h := range localShards {
		idU := uint32(id)
		req.ShardDigests[idU] = uint64(h)
	}

	// Prepare Sub-Bucket Digests
	for k := range req.SubDigests {
		delete(req.SubDigests, k)
	}
	for id, hashes := range localBuckets {
		sd := s.pools.shardDigests.Get().(*ShardDigests)
		sd.SubHashes = hashes // want `useafterput`
		idU := uint32(id)
		req.SubDigests[idU] = sd
	}
}

func (s *Syncer) cleanupPullRequest(req *PullRequest) {
	for _, sd := range req.SubDigests {
		sd.SubHashes = nil
		s.pools.shardDigests.Put(sd)
	}
	for k := range req.SubDigests {
		delete(req.SubDigests, k)
	}
	s.pools.pullRequests.Put(req)
}
