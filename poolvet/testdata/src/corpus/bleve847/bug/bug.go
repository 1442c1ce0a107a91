// Package bug reproduces the shape of blevesearch/bleve#847
// (https://github.com/blevesearch/bleve/pull/847): a pooled "interim"
// builder kept its fieldsInv slice across uses, and the segment built from
// it kept pointing at that same slice after the builder went back to the
// pool. The next user of the builder rewrote the slice under the segment.
//
// Check: useafterput (retention: a helper stores a slice owned by the
// pooled object into the struct the function returns, then the object is
// put back).
package bug

import "sync"

type interim struct {
	fieldsInv []string
}

func (s *interim) reset() {
	s.fieldsInv = s.fieldsInv[:0]
}

var interimPool = sync.Pool{New: func() any { return &interim{} }}

type Segment struct {
	fieldsInv []string
	numDocs   int
}

// newSegment copies the header fields out of the builder; fieldsInv is
// shared, not copied.
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
	return seg // want `used after|shares memory|useafterput|retain`
}
