// Package bug reproduces the shape of prometheus/prometheus#17895
// (https://github.com/prometheus/prometheus/pull/17895): WAL replay decodes
// series records into slices recycled through pools, and put each slice
// back truncated to length zero. The truncated elements past the new
// length still referenced every decoded series' Labels, so an idle pooled
// slice kept the previous batch's label memory reachable. The fix clears
// the elements before the Put.
//
// Check: noreset (a pooled *[]RefSeries truncated with (*sp)[:0] and put
// back without clear; the elements hold label slices).
package bug

import (
	"encoding/binary"
	"errors"
	"sync"
)

type Label struct {
	Name, Value string
}

type Labels []Label

type RefSeries struct {
	Ref    uint64
	Labels Labels
}

// maxPooledSeries bounds what goes back to the pool; larger batches are
// left to the GC.
const maxPooledSeries = 4096

var seriesPool = sync.Pool{New: func() any {
	s := make([]RefSeries, 0, 512)
	return &s
}}

var errCorrupt = errors.New("corrupt series record")

// decodeSeries appends one RefSeries per entry of rec to dst. An entry is
// a uvarint ref, a uvarint label count, then name/value pairs each
// prefixed by a one-byte length.
func decodeSeries(rec []byte, dst []RefSeries) ([]RefSeries, error) {
	for len(rec) > 0 {
		ref, n := binary.Uvarint(rec)
		if n <= 0 {
			return dst, errCorrupt
		}
		rec = rec[n:]
		cnt, n := binary.Uvarint(rec)
		if n <= 0 {
			return dst, errCorrupt
		}
		rec = rec[n:]
		lset := make(Labels, 0, cnt)
		for i := uint64(0); i < cnt; i++ {
			var pair [2]string
			for j := range pair {
				if len(rec) == 0 || len(rec) < 1+int(rec[0]) {
					return dst, errCorrupt
				}
				l := int(rec[0])
				pair[j] = string(rec[1 : 1+l])
				rec = rec[1+l:]
			}
			lset = append(lset, Label{Name: pair[0], Value: pair[1]})
		}
		dst = append(dst, RefSeries{Ref: ref, Labels: lset})
	}
	return dst, nil
}

type Head struct {
	mu     sync.Mutex
	series map[uint64]Labels
}

func (h *Head) getOrCreate(ref uint64, lset Labels) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.series[ref]; !ok {
		h.series[ref] = lset
	}
}

// loadWAL replays series records into the head.
func loadWAL(records [][]byte, h *Head) error {
	for _, rec := range records {
		sp := seriesPool.Get().(*[]RefSeries)
		series, err := decodeSeries(rec, (*sp)[:0])
		if err != nil {
			return err
		}
		for _, s := range series {
			h.getOrCreate(s.Ref, s.Labels)
		}
		*sp = series[:0]
		if cap(*sp) <= maxPooledSeries {
			seriesPool.Put(sp) // want `noreset`
		}
	}
	return nil
}
