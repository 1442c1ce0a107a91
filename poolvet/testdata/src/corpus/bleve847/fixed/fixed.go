// Package fixed is the fix of blevesearch/bleve#847
// (https://github.com/blevesearch/bleve/pull/847): reset drops the slice
// (nil) so the segment keeps the only reference to it, and the next user of
// the builder allocates a fresh one.
package fixed

import "sync"

type interim struct {
	fieldsInv []string
}

func (s *interim) reset() {
	s.fieldsInv = nil
}

var interimPool = sync.Pool{New: func() any { return &interim{} }}

type Segment struct {
	fieldsInv []string
	numDocs   int
}

func newSegment(s *interim, n int) *Segment {
	return &Segment{fieldsInv: s.fieldsInv, numDocs: n}
}

func Build(fields []string, n int) *Segment {
	s := interimPool.Get().(*interim)
	for _, f := range fields {
		s.fieldsInv = append(s.fieldsInv, f)
	}
	seg := newSegment(s, n)
	s.reset()
	interimPool.Put(s)
	return seg
}
