// Package bug reproduces the shape of m3db/m3#1849
// (https://github.com/m3db/m3/pull/1849, commit 7f9a6beb76306e4aba06d30d8008ce664091532b):
// the repair path walks a FetchBlocksMetadataResults with a filtered
// metadata iterator. For every block of a series, Next drains the series'
// pooled tag iterator and Closes it, which hands the iterator back to its
// pool, but the result entry keeps pointing at it. The next block of the same
// series closes it again, and fetchBlocksMetadataResults.Close closes it once
// more when the caller releases the results, so one pooled iterator is put
// back several times and later handed to two users. The fix clears the
// entry's Tags field right after the Close.
//
// Check: doubleput (reported at the tagsIter.Close() in Next, which returns
// the iterator to its pool while res[i].Tags still owns it and will close it
// again).
package bug

import "sync"

type tag struct {
	name, value string
}

// tagIteratorPool is the project's typed wrapper around a sync.Pool.
type tagIteratorPool struct {
	p sync.Pool
}

func newTagIteratorPool() *tagIteratorPool {
	tp := &tagIteratorPool{}
	tp.p.New = func() interface{} { return &tagIterator{pool: tp} }
	return tp
}

func (tp *tagIteratorPool) Get() *tagIterator { return tp.p.Get().(*tagIterator) }

func (tp *tagIteratorPool) Put(it *tagIterator) { tp.p.Put(it) }

type tagIterator struct {
	tags []tag
	idx  int
	pool *tagIteratorPool
}

func (it *tagIterator) Reset(tags []tag) {
	it.tags = tags
	it.idx = -1
}

func (it *tagIterator) Next() bool {
	it.idx++
	return it.idx < len(it.tags)
}

func (it *tagIterator) Current() tag { return it.tags[it.idx] }

func (it *tagIterator) Err() error { return nil }

// Close returns the iterator to its pool.
func (it *tagIterator) Close() {
	it.tags = nil
	it.idx = 0
	if it.pool != nil {
		it.pool.Put(it)
	}
}

type blockMetadata struct {
	start    int64
	size     int64
	checksum uint32
	err      error
}

// FetchBlocksMetadataResult is one series in a metadata fetch.
type FetchBlocksMetadataResult struct {
	ID     string
	Tags   *tagIterator
	Blocks []blockMetadata
}

type fetchBlocksMetadataResults struct {
	results []FetchBlocksMetadataResult
}

func (s *fetchBlocksMetadataResults) Add(r FetchBlocksMetadataResult) {
	s.results = append(s.results, r)
}

func (s *fetchBlocksMetadataResults) Results() []FetchBlocksMetadataResult {
	return s.results
}

// Close releases everything the results still own.
func (s *fetchBlocksMetadataResults) Close() {
	for i := range s.results {
		if s.results[i].Tags != nil {
			s.results[i].Tags.Close()
			s.results[i].Tags = nil
		}
		s.results[i].Blocks = nil
	}
	s.results = s.results[:0]
}

// Metadata is what the repairer compares between replicas.
type Metadata struct {
	ID       string
	Tags     []tag
	Start    int64
	Size     int64
	Checksum uint32
}

type filteredBlocksMetadataIter struct {
	res      []FetchBlocksMetadataResult
	metadata Metadata
	resIdx   int
	blockIdx int
	err      error
}

func newFilteredBlocksMetadataIter(res *fetchBlocksMetadataResults) *filteredBlocksMetadataIter {
	return &filteredBlocksMetadataIter{res: res.Results()}
}

func (it *filteredBlocksMetadataIter) Next() bool {
	if it.err != nil {
		return false
	}
	if it.resIdx >= len(it.res) {
		return false
	}
	blocks := it.res[it.resIdx].Blocks
	for it.blockIdx < len(blocks) {
		if blocks[it.blockIdx].err != nil {
			it.blockIdx++
			continue
		}
		break
	}
	if it.blockIdx >= len(blocks) {
		it.resIdx++
		it.blockIdx = 0
		return it.Next()
	}
	block := blocks[it.blockIdx]
	var tags []tag
	if tagsIter := it.res[it.resIdx].Tags; tagsIter != nil {
		for tagsIter.Next() {
			tags = append(tags, tagsIter.Current())
		}
		if err := tagsIter.Err(); err != nil {
			it.err = err
			return false
		}
		tagsIter.Close() // want `doubleput`
	}
	it.metadata = Metadata{
		ID:       it.res[it.resIdx].ID,
		Tags:     tags,
		Start:    block.start,
		Size:     block.size,
		Checksum: block.checksum,
	}
	it.blockIdx++
	return true
}

func (it *filteredBlocksMetadataIter) Current() Metadata { return it.metadata }

func (it *filteredBlocksMetadataIter) Err() error { return it.err }

// repairShard compares local metadata against a peer's and then releases the
// fetched results.
func repairShard(pool *tagIteratorPool, ids []string, peer map[string]uint32) (int, error) {
	res := &fetchBlocksMetadataResults{}
	for _, id := range ids {
		tagsIter := pool.Get()
		tagsIter.Reset([]tag{{name: "series", value: id}})
		res.Add(FetchBlocksMetadataResult{
			ID:     id,
			Tags:   tagsIter,
			Blocks: []blockMetadata{{start: 0, size: 10}, {start: 60, size: 12}},
		})
	}
	defer res.Close()

	mismatches := 0
	iter := newFilteredBlocksMetadataIter(res)
	for iter.Next() {
		m := iter.Current()
		if peer[m.ID] != m.Checksum {
			mismatches++
		}
	}
	return mismatches, iter.Err()
}
