// Package bug reproduces the shape of m3db/m3#437
// (https://github.com/m3db/m3/pull/437, "Fix policy all_metadata double
// registering stream for finalization"): a context finalizes (returns to
// their pool) the streams registered with it when it closes. When a block
// was backed by a block retriever, the retriever's Stream already
// registered the pooled stream with the context, and dbBlock.Stream then
// registered the same stream again, so closing the context finalized it
// twice and the reader went back to its pool twice.
//
// Check: doubleput (the same pooled object registered twice with a context
// that puts every registered object when it closes). Reported at the second
// registration, which schedules the second Put the way a second deferred
// Put would; the Put itself runs later inside opContext.Close.
package bug

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
	var stream *segmentReader
	if b.retriever != nil {
		stream = b.retriever.Stream(ctx, b.start)
	} else {
		stream = readerPool.Get().(*segmentReader)
		stream.data = b.segment
	}

	// Register the finalizer for the stream.
	ctx.RegisterFinalizer(stream) // want `doubleput`
	return stream
}

// ReadBlock streams a block and copies its data out.
func ReadBlock(b *dbBlock) []byte {
	ctx := NewContext()
	defer ctx.Close()
	stream := b.Stream(ctx)
	return append([]byte(nil), stream.data...)
}
