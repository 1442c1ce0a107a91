package bug

import (
	"errors"
	"time"
)

var errReadFromClosedBlock = errors.New("attempt to read from a closed block")

// Options holds block options.
type Options struct {
	SegmentReaderPool SegmentReaderPool
	NewContext        func() Context
}

type dbBlock struct {
	opts    Options
	ctx     Context
	start   time.Time
	segment Segment
	closed  bool
}

// NewDatabaseBlock creates a new block that owns segment.
func NewDatabaseBlock(start time.Time, segment Segment, opts Options) *dbBlock {
	b := &dbBlock{
		opts:  opts,
		ctx:   opts.NewContext(),
		start: start,
	}
	b.resetSegment(segment)
	return b
}

func (b *dbBlock) Stream(blocker Context) (SegmentReader, error) {
	if b.closed {
		return nil, errReadFromClosedBlock
	}
	b.ctx.DependsOn(blocker)
	// If the block is not writable, and the segment is empty, it means
	// there are no data encoded in this block, so we return a nil reader.
	if b.segment.Head == nil && b.segment.Tail == nil {
		return nil, nil
	}
	s := b.opts.SegmentReaderPool.Get()
	s.Reset(b.segment)
	blocker.RegisterFinalizer(FinalizerFn(s.Close)) // want `doubleput`
	return s, nil
}

// Reset resets the block start time and the segment.
func (b *dbBlock) Reset(start time.Time, segment Segment) {
	if !b.closed {
		b.ctx.Close()
	}
	b.ctx = b.opts.NewContext()
	b.start = start
	b.closed = false
	b.resetSegment(segment)
}

func (b *dbBlock) resetSegment(seg Segment) {
	b.segment = seg
	b.ctx.RegisterFinalizer(&seg)
}

func (b *dbBlock) Close() {
	if b.closed {
		return
	}
	b.closed = true
	b.ctx.Close()
}
