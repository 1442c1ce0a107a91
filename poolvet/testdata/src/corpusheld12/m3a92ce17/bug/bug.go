// Package bug reproduces the shape of m3db/m3 commit a92ce17
// (https://github.com/m3db/m3/commit/a92ce173343b04a7e649158ea1aec5034287d1b8,
// "Dont double close block"): the commit log bootstrapper merged a snapshot
// block into the commit log data. newIOReadersFromEncodersAndBlock took the
// block's segment with Discard, which closes the block and puts it back in
// the block pool; mergeSeries then called snapshotBlock.Close() "since we
// merged it", closing (putting back) the same block again. The block's
// closed flag is cleared by Reset when the pool hands the block out again,
// so the second Close can put back a block another merge is filling.
//
// Check: doubleput (a helper puts its argument through Discard, then the
// caller closes the same block; reported at the Close).
package bug

import "sync"

type dbBlock struct {
	start   int64
	segment []byte
	closed  bool
}

var blockPool = sync.Pool{New: func() any { return &dbBlock{} }}

func newBlock(start int64, segment []byte) *dbBlock {
	b := blockPool.Get().(*dbBlock)
	b.Reset(start, segment)
	return b
}

func (b *dbBlock) Reset(start int64, segment []byte) {
	b.start, b.segment, b.closed = start, segment, false
}

// closeWithLock puts the block back and hands its segment to the caller.
func (b *dbBlock) closeWithLock() []byte {
	if b.closed {
		return nil
	}
	segment := b.segment
	b.closed = true
	b.segment = nil
	blockPool.Put(b)
	return segment
}

// Discard closes the block and transfers ownership of its segment.
func (b *dbBlock) Discard() []byte { return b.closeWithLock() }

// Close closes the block and drops its segment.
func (b *dbBlock) Close() { b.closeWithLock() }

// newIOReadersFromEncodersAndBlock closes the block by calling Discard.
func newIOReadersFromEncodersAndBlock(encoded [][]byte, snapshotBlock *dbBlock) [][]byte {
	readers := make([][]byte, 0, len(encoded)+1)
	if snapshotBlock != nil {
		readers = append(readers, snapshotBlock.Discard())
	}
	return append(readers, encoded...)
}

type commitLogSource struct {
	snapshotBlocks map[int64]*dbBlock
	merged         map[int64]*dbBlock
}

func (s *commitLogSource) mergeSeries(unmerged map[int64][][]byte) {
	for start, encoded := range unmerged {
		snapshotBlock, hasSnapshotBlock := s.snapshotBlocks[start]
		if !hasSnapshotBlock {
			snapshotBlock = nil
		}

		readers := newIOReadersFromEncodersAndBlock(encoded, snapshotBlock)

		var merged []byte
		for _, r := range readers {
			merged = append(merged, r...)
		}

		if hasSnapshotBlock {
			// Safe to close this now since we merged it.
			snapshotBlock.Close() // want `doubleput`
			delete(s.snapshotBlocks, start)
		}

		s.merged[start] = newBlock(start, merged)
	}
}
