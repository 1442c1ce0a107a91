// Package bug reproduces the shape of m3db/m3#209 (https://github.com/m3db/m3/pull/209):
// the shard repairer fetched the local blocks metadata as a pooled results object, walked it
// with an iterator that fed every series ID into the long-lived replica comparer, and then
// called localMetadata.Close() right away. Close finalizes each series ID (its bytes go back to
// the ID pool) and returns the results object to its pool, but the comparer still holds those
// IDs and reads them again in Compare(), after another fetch may have reused the memory. The
// fix registers Close as a finalizer on the request context so it runs when the context closes.
// Check: useafterput (the IDs owned by localMetadata are used by metadata.Compare() after
// localMetadata.Close() put them back).
package bug

import (
	"hash/fnv"
	"sync"
)

// ID is a pooled series identifier (stands in for ts.ID).
type ID struct {
	data []byte
}

var idPool = sync.Pool{New: func() any { return &ID{data: make([]byte, 0, 64)} }}

func NewID(s string) *ID {
	id := idPool.Get().(*ID)
	id.data = append(id.data[:0], s...)
	return id
}

func (id *ID) Bytes() []byte { return id.data }

func (id *ID) Hash() uint64 {
	h := fnv.New64a()
	h.Write(id.data)
	return h.Sum64()
}

// Finalize returns the ID to its pool; the caller must not use it afterwards.
func (id *ID) Finalize() {
	id.data = id.data[:0]
	idPool.Put(id)
}

type BlockMetadata struct {
	Start    int64
	Size     int64
	Checksum *uint32
}

type FetchBlocksMetadataResult struct {
	ID     *ID
	Blocks []BlockMetadata
}

type fetchBlocksMetadataResults struct {
	results []FetchBlocksMetadataResult
	pooled  bool
}

var resultsPool = sync.Pool{New: func() any {
	return &fetchBlocksMetadataResults{results: make([]FetchBlocksMetadataResult, 0, 16), pooled: true}
}}

func newPooledResults() *fetchBlocksMetadataResults {
	return resultsPool.Get().(*fetchBlocksMetadataResults)
}

func (s *fetchBlocksMetadataResults) Add(res FetchBlocksMetadataResult) {
	s.results = append(s.results, res)
}

func (s *fetchBlocksMetadataResults) Results() []FetchBlocksMetadataResult { return s.results }

func (s *fetchBlocksMetadataResults) Reset() {
	for i := range s.results {
		s.results[i] = FetchBlocksMetadataResult{}
	}
	s.results = s.results[:0]
}

// Close finalizes every series ID and returns the results to the pool.
func (s *fetchBlocksMetadataResults) Close() {
	for i := range s.results {
		s.results[i].ID.Finalize()
	}
	if s.pooled {
		s.Reset()
		resultsPool.Put(s)
	}
}

type filteredBlocksMetadataIter struct {
	res      []FetchBlocksMetadataResult
	id       *ID
	block    BlockMetadata
	resIdx   int
	blockIdx int
}

func NewFilteredBlocksMetadataIter(res *fetchBlocksMetadataResults) *filteredBlocksMetadataIter {
	return &filteredBlocksMetadataIter{res: res.Results()}
}

func (it *filteredBlocksMetadataIter) Next() bool {
	for it.resIdx < len(it.res) {
		blocks := it.res[it.resIdx].Blocks
		if it.blockIdx < len(blocks) {
			it.id = it.res[it.resIdx].ID
			it.block = blocks[it.blockIdx]
			it.blockIdx++
			return true
		}
		it.resIdx++
		it.blockIdx = 0
	}
	return false
}

func (it *filteredBlocksMetadataIter) Current() (*ID, BlockMetadata) { return it.id, it.block }

type HostBlockMetadata struct {
	Host     string
	Size     int64
	Checksum *uint32
}

type ReplicaSeriesBlocksMetadata struct {
	ID     *ID
	Blocks map[int64][]HostBlockMetadata
}

type replicaMetadataComparer struct {
	replicas int
	metadata map[uint64]*ReplicaSeriesBlocksMetadata
}

func NewReplicaMetadataComparer(replicas int) replicaMetadataComparer {
	return replicaMetadataComparer{replicas: replicas, metadata: make(map[uint64]*ReplicaSeriesBlocksMetadata)}
}

func (m replicaMetadataComparer) getOrAdd(id *ID) *ReplicaSeriesBlocksMetadata {
	series, ok := m.metadata[id.Hash()]
	if !ok {
		series = &ReplicaSeriesBlocksMetadata{ID: id, Blocks: make(map[int64][]HostBlockMetadata)}
		m.metadata[id.Hash()] = series
	}
	return series
}

func (m replicaMetadataComparer) AddLocalMetadata(origin string, localIter *filteredBlocksMetadataIter) {
	for localIter.Next() {
		id, block := localIter.Current()
		series := m.getOrAdd(id)
		series.Blocks[block.Start] = append(series.Blocks[block.Start], HostBlockMetadata{
			Host: origin, Size: block.Size, Checksum: block.Checksum,
		})
	}
}

type PeerBlocks struct {
	Host   string
	ID     *ID
	Blocks []BlockMetadata
}

func (m replicaMetadataComparer) AddPeerMetadata(peers []PeerBlocks) {
	for _, pb := range peers {
		series := m.getOrAdd(pb.ID)
		for _, b := range pb.Blocks {
			series.Blocks[b.Start] = append(series.Blocks[b.Start], HostBlockMetadata{
				Host: pb.Host, Size: b.Size, Checksum: b.Checksum,
			})
		}
	}
}

type MetadataComparisonResult struct {
	NumSeries       int
	SizeDifferences []string
}

func (m replicaMetadataComparer) Compare() MetadataComparisonResult {
	var res MetadataComparisonResult
	for _, series := range m.metadata {
		res.NumSeries++
		for _, hosts := range series.Blocks {
			if len(hosts) != m.replicas {
				res.SizeDifferences = append(res.SizeDifferences, string(series.ID.Bytes()))
				break
			}
			for _, h := range hosts[1:] {
				if h.Size != hosts[0].Size {
					res.SizeDifferences = append(res.SizeDifferences, string(series.ID.Bytes()))
					break
				}
			}
		}
	}
	return res
}

// Context collects finalizers that run when the request finishes.
type Context struct {
	finalizers []func()
}

func (c *Context) RegisterFinalizer(fn func()) { c.finalizers = append(c.finalizers, fn) }

func (c *Context) Close() {
	for _, fn := range c.finalizers {
		fn()
	}
	c.finalizers = nil
}

type Shard interface {
	FetchBlocksMetadata(ctx *Context, start, end int64) *fetchBlocksMetadataResults
}

type Session interface {
	Origin() string
	Replicas() int
	FetchBlocksMetadataFromPeers(shard uint32, start, end int64) ([]PeerBlocks, error)
}

type shardRepairer struct {
	session  Session
	recordFn func(uint32, MetadataComparisonResult)
}

func (r shardRepairer) Repair(ctx *Context, shardID uint32, start, end int64, shard Shard) (MetadataComparisonResult, error) {
	origin := r.session.Origin()
	metadata := NewReplicaMetadataComparer(r.session.Replicas())

	// Add local metadata
	localMetadata := shard.FetchBlocksMetadata(ctx, start, end)
	localIter := NewFilteredBlocksMetadataIter(localMetadata)
	metadata.AddLocalMetadata(origin, localIter)
	localMetadata.Close()

	// Add peer metadata
	peers, err := r.session.FetchBlocksMetadataFromPeers(shardID, start, end)
	if err != nil {
		return MetadataComparisonResult{}, err
	}
	metadata.AddPeerMetadata(peers)

	metadataRes := metadata.Compare() // want `useafterput`

	r.recordFn(shardID, metadataRes)

	return metadataRes, nil
}

// RepairShard runs one repair and releases the request's pooled objects once it is done.
func RepairShard(r shardRepairer, shardID uint32, start, end int64, shard Shard) (int, error) {
	ctx := &Context{}
	defer ctx.Close()

	res, err := r.Repair(ctx, shardID, start, end, shard)
	if err != nil {
		return 0, err
	}
	return len(res.SizeDifferences), nil
}
