// Package bug reproduces the shape of m3db/m3#218
// (https://github.com/m3db/m3/pull/218, "remove double frees in
// series.mergeBlock()"): Stream(ctx) gets a segment reader from its pool and
// registers it with the context, so ctx.Close() closes (puts back) every
// reader registered with it. mergeBlock also deferred Close of each reader,
// so each reader went back to its pool twice: once from its own deferred
// Close, and again from the deferred ctx.Close, which runs last.
//
// Check: doubleput (a reader registered with a context that closes it, and
// a deferred Close of the same reader). Deferred calls run last-in
// first-out, so the second Put is the one made by ctx.Close; the report is
// expected at `defer ctx.Close()`, the deferred call that runs after the
// readers' own Close.
package bug

import "sync"

type segmentReader struct {
	seg []byte
	pos int
}

var readerPool = sync.Pool{New: func() any { return &segmentReader{} }}

// Close returns the reader to its pool.
func (r *segmentReader) Close() {
	r.seg, r.pos = nil, 0
	readerPool.Put(r)
}

func (r *segmentReader) Next() (byte, bool) {
	if r.pos >= len(r.seg) {
		return 0, false
	}
	b := r.seg[r.pos]
	r.pos++
	return b, true
}

// opContext closes what was registered with it when it is closed.
type opContext struct {
	closers []*segmentReader
}

var contextPool = sync.Pool{New: func() any { return &opContext{} }}

func getContext() *opContext { return contextPool.Get().(*opContext) }

func (c *opContext) RegisterCloser(r *segmentReader) {
	c.closers = append(c.closers, r)
}

func (c *opContext) Close() {
	for _, r := range c.closers {
		r.Close()
	}
	clear(c.closers)
	if cap(c.closers) > 1024 {
		return
	}
	c.closers = c.closers[:0]
	contextPool.Put(c)
}

type dbBlock struct {
	start int64
	data  []byte
}

// Stream returns a pooled reader over the block, owned by ctx.
func (b *dbBlock) Stream(ctx *opContext) *segmentReader {
	if len(b.data) == 0 {
		return nil
	}
	r := readerPool.Get().(*segmentReader)
	r.seg, r.pos = b.data, 0
	ctx.RegisterCloser(r)
	return r
}

type dbSeries struct {
	blocks map[int64]*dbBlock
}

func (s *dbSeries) mergeBlock(newBlock *dbBlock) {
	existingBlock, ok := s.blocks[newBlock.start]
	if !ok {
		s.blocks[newBlock.start] = newBlock
		return
	}

	ctx := getContext()
	defer ctx.Close() // want `doubleput`

	newBlockReader := newBlock.Stream(ctx)
	if newBlockReader == nil {
		return
	}
	defer newBlockReader.Close()

	existingBlockReader := existingBlock.Stream(ctx)
	if existingBlockReader == nil {
		s.blocks[newBlock.start] = newBlock
		return
	}
	defer existingBlockReader.Close()

	merged := make([]byte, 0, len(newBlock.data)+len(existingBlock.data))
	for _, r := range []*segmentReader{newBlockReader, existingBlockReader} {
		for b, ok := r.Next(); ok; b, ok = r.Next() {
			merged = append(merged, b)
		}
	}
	s.blocks[newBlock.start] = &dbBlock{start: newBlock.start, data: merged}
}
