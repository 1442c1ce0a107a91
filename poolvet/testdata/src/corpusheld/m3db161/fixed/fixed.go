// Package fixed is the fix of m3db/m3#161
// (https://github.com/m3db/m3/pull/161): each element is zeroed before the
// slice is truncated and the object goes back to the pool.
package fixed

import "sync"

type blockList struct{ blocks [][]byte }

func (b *blockList) close() { b.blocks = nil }

type FetchBlocksMetadataResult struct {
	ID     []byte
	Blocks *blockList
}

type fetchBlocksMetadataResults struct {
	results []FetchBlocksMetadataResult
}

func (s *fetchBlocksMetadataResults) Reset() {
	var zeroed FetchBlocksMetadataResult
	for i := range s.results {
		s.results[i] = zeroed
	}
	s.results = s.results[:0]
}

var resultsPool = sync.Pool{New: func() any { return &fetchBlocksMetadataResults{} }}

func (s *fetchBlocksMetadataResults) Close() {
	for _, res := range s.results {
		res.Blocks.close()
	}
	s.Reset()
	if cap(s.results) > 4096 {
		return
	}
	resultsPool.Put(s)
}
