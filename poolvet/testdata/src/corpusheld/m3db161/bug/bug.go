// Package bug reproduces the shape of m3db/m3#161
// (https://github.com/m3db/m3/pull/161): pooled result arrays were reset
// to length zero on Close without zeroing their elements, so the pool kept
// references to every block and ID of the previous fetch (and a reuse that
// extended the slice saw them again).
//
// Check: noreset (a reset that truncates but forgets the elements).
package bug

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
	resultsPool.Put(s) // want `noreset|not reset|clear|stale|forg|element`
}
