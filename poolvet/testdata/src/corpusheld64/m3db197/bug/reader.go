package bug

import "io"

// SegmentReader reads a segment.
type SegmentReader interface {
	io.Reader
	Segment() Segment
	Reset(segment Segment)
	Close()
}

// SegmentReaderPool pools segment readers.
type SegmentReaderPool interface {
	Get() SegmentReader
	Put(sr SegmentReader)
}

type segmentReaderPool struct {
	ch chan SegmentReader
}

// NewSegmentReaderPool creates a segment reader pool.
func NewSegmentReaderPool(size int) SegmentReaderPool {
	return &segmentReaderPool{ch: make(chan SegmentReader, size)}
}

func (p *segmentReaderPool) Get() SegmentReader {
	select {
	case sr := <-p.ch:
		return sr
	default:
		return &segmentReader{pool: p}
	}
}

func (p *segmentReaderPool) Put(sr SegmentReader) {
	select {
	case p.ch <- sr:
	default:
	}
}

type segmentReader struct {
	segment Segment
	si      int
	pool    SegmentReaderPool
}

func (sr *segmentReader) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	head, tail := sr.segment.Head, sr.segment.Tail
	nh, nt := len(head), len(tail)
	if sr.si >= nh+nt {
		return 0, io.EOF
	}
	n := 0
	if sr.si < nh {
		nRead := copy(b, head[sr.si:])
		sr.si += nRead
		n += nRead
		if n == len(b) {
			return n, nil
		}
	}
	if sr.si < nh+nt {
		nRead := copy(b[n:], tail[sr.si-nh:])
		sr.si += nRead
		n += nRead
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

func (sr *segmentReader) Segment() Segment {
	return sr.segment
}

func (sr *segmentReader) Reset(segment Segment) {
	sr.segment = segment
	sr.si = 0
}

func (sr *segmentReader) Close() {
	// Return head and tail to pools if their pools are set on the segment
	sr.segment.Finalize()

	if sr.pool != nil {
		sr.pool.Put(sr)
	}
}
