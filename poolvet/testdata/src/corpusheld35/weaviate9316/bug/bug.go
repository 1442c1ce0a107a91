// Package bug reproduces the shape of weaviate/weaviate#9316 (https://github.com/weaviate/weaviate/pull/9316,
// commit https://github.com/weaviate/weaviate/commit/db0ec244c41fd70a33fcafc2fde4da7fd62ff402
// "fix PagedArray thread safety"): the SPFresh brute-force centroid index copies its id list into
// a scratch []uint64 taken from a sync.Pool and returns it with a deferred Put. The pool held bare
// slices, so every deferred Put boxed the slice header into an interface (an allocation per
// search). The fix pools *[]uint64 and puts &ids. (The project deferred the Put directly; here
// the deferred call also carries a capacity guard, in both twins, since the id copy grows with
// the index.)
// Check: nonpointer (a []uint64 is put into the sync.Pool; report at the deferred Put in Search).
package bug

import (
	"sync"
	"time"
)

type Centroid struct {
	Vector  []float32
	Deleted bool
}

type Metrics struct {
	total time.Duration
}

func (m *Metrics) CentroidSearchDuration(start time.Time) {
	m.total += time.Since(start)
}

type ResultSet struct {
	k     int
	ids   []uint64
	dists []float32
}

func NewResultSet(k int) *ResultSet {
	return &ResultSet{k: k}
}

func (r *ResultSet) Insert(id uint64, dist float32) {
	if len(r.ids) < r.k {
		r.ids = append(r.ids, id)
		r.dists = append(r.dists, dist)
		return
	}
	worst := 0
	for i := range r.dists {
		if r.dists[i] > r.dists[worst] {
			worst = i
		}
	}
	if dist < r.dists[worst] {
		r.ids[worst], r.dists[worst] = id, dist
	}
}

type BruteForceSPTAG struct {
	metrics   *Metrics
	centroids map[uint64]*Centroid
	idLock    sync.RWMutex
	ids       []uint64
}

func (s *BruteForceSPTAG) Get(id uint64) *Centroid {
	return s.centroids[id]
}

const maxPooledIDs = 1 << 16

var idsPool = sync.Pool{
	New: func() any {
		return make([]uint64, 0, 1024)
	},
}

func distance(a, b []float32) float32 {
	var d float32
	for i := range a {
		if i < len(b) {
			x := a[i] - b[i]
			d += x * x
		}
	}
	return d
}

func (s *BruteForceSPTAG) Search(query []float32, k int) (*ResultSet, error) {
	start := time.Now()
	defer s.metrics.CentroidSearchDuration(start)

	if k == 0 {
		return nil, nil
	}

	ids := idsPool.Get().([]uint64)
	ids = ids[:0]
	defer func() {
		if cap(ids) <= maxPooledIDs {
			idsPool.Put(ids) // want `nonpointer`
		}
	}()

	s.idLock.RLock()
	ids = append(ids, s.ids...) // copy to avoid races
	s.idLock.RUnlock()

	q := NewResultSet(k)
	for i := range ids {
		c := s.Get(ids[i])
		if c == nil || c.Deleted {
			continue
		}
		q.Insert(ids[i], distance(c.Vector, query))
	}
	return q, nil
}
