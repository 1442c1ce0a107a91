// Package fixed is the fix of m3db/m3#437
// (https://github.com/m3db/m3/pull/437): dbBlock.Stream registers the
// stream for finalization only when it created the stream itself; a stream
// from the block retriever is already registered.
package fixed

import "sync"

// Finalizer is a resource a context finalizes when it closes.
type Finalizer interface {
	Finalize()
}

type segmentReader struct {
	data []byte
}

var readerPool = sync.Pool{New: func() any { return &segmentReader{} }}

// Finalize returns the reader to its pool.
func (r *segmentReader) Finalize() {
	r.data = nil
	readerPool.Put(r)
}

type opContext struct {
	finalizers []Finalizer
}

var contextPool = sync.Pool{New: func() any { return &opContext{} }}

func NewContext() *opContext { return contextPool.Get().(*opContext) }

func (c *opContext) RegisterFinalizer(f Finalizer) {
	c.finalizers = append(c.finalizers, f)
}

// Close finalizes everything registered with the context.
func (c *opContext) Close() {
	for _, f := range c.finalizers {
		f.Finalize()
	}
	clear(c.finalizers)
	if cap(c.finalizers) > 1024 {
		return
	}
	c.finalizers = c.finalizers[:0]
	contextPool.Put(c)
}

type blockRetriever struct {
	segments map[int64][]byte
}

// Stream returns a pooled reader and registers it with ctx for
// finalization.
func (r *blockRetriever) Stream(ctx *opContext, start int64) *segmentReader {
	stream := readerPool.Get().(*segmentReader)
	stream.data = r.segments[start]
	ctx.RegisterFinalizer(stream)
	return stream
}

type dbBlock struct {
	start     int64
	segment   []byte
	retriever *blockRetriever
}

func (b *dbBlock) Stream(ctx *opContext) *segmentReader {
	var (
		stream             *segmentReader
		fromBlockRetriever bool
	)
	if b.retriever != nil {
		fromBlockRetriever = true
		stream = b.retriever.Stream(ctx, b.start)
	} else {
		stream = readerPool.Get().(*segmentReader)
		stream.data = b.segment
	}

	if !fromBlockRetriever {
		// The block retriever already registered its stream; register
		// only a stream made here.
		ctx.RegisterFinalizer(stream)
	}
	return stream
}

// ReadBlock streams a block and copies its data out.
func ReadBlock(b *dbBlock) []byte {
	ctx := NewContext()
	defer ctx.Close()
	stream := b.Stream(ctx)
	return append([]byte(nil), stream.data...)
}
