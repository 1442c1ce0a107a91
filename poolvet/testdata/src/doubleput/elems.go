package doubleput

import (
	"io"
	"sync"
)

type segment struct{ b []byte }

var segmentPool = sync.Pool{New: func() any { return new(segment) }}

func (s *segment) release() {
	if s == nil {
		return
	}
	s.b = s.b[:0]
	segmentPool.Put(s)
}

type segments []*segment

// release puts every element and leaves them in the slice.
func (ss segments) release() {
	for _, s := range ss {
		s.release()
	}
}

// releaseSegments puts every element and clears the slice it hands back.
func releaseSegments(ss segments) segments {
	for i := range ss {
		ss[i].release()
		ss[i] = nil
	}
	return ss[:0]
}

type segWriter struct{ w io.Writer }

func (s *segWriter) writeSegments(ss segments) error {
	defer ss.release()
	for _, x := range ss {
		if _, err := s.w.Write(x.b); err != nil {
			return err
		}
	}
	return nil
}

// The writer releases what it is given, and the caller releases it again
// (v2fly/v2ray-core fa63bec).
func transferSegments(w io.Writer, ss segments) error {
	sw := &segWriter{w: w}
	if err := sw.writeSegments(ss); err != nil {
		return err
	}
	ss.release() // want `ss is put into the pool twice`
	return nil
}

// The fix: the caller does not release what it handed over.
func transferSegmentsOnce(w io.Writer, ss segments) error {
	sw := &segWriter{w: w}
	return sw.writeSegments(ss)
}

// A slice whose elements are put and cleared can be reused.
func refillSegments(ss segments, n int) segments {
	ss = releaseSegments(ss)
	for i := 0; i < n; i++ {
		ss = append(ss, segmentPool.Get().(*segment))
	}
	return ss
}
