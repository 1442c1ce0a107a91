// Package bug reproduces the shape of a bug caught in review of
// mosn/holmes#127 (https://github.com/mosn/holmes/pull/127): a ring of
// samples built its "in order" copy in a slice taken from a sync.Pool and put
// the slice back with a defer, but returned that very slice. The deferred Put
// runs before the caller reads the result, so another caller could get the
// same backing array from the pool and rewrite it under the first caller.
//
// Check: useafterput (alias returned past a deferred Put, here a deferred
// closure that only skips oversized slices; the report belongs at the return
// that hands out the pooled slice).
package bug

import "sync"

// maxPooled bounds the slices kept in the pool.
const maxPooled = 4096

type ring struct {
	data   []int
	idx    int
	maxLen int
	pool   sync.Pool
}

func newRing(n int) *ring {
	r := &ring{maxLen: n}
	r.pool.New = func() any {
		s := make([]int, 0, n)
		return &s
	}
	return r
}

func (r *ring) push(v int) {
	if len(r.data) < r.maxLen {
		r.data = append(r.data, v)
		return
	}
	r.data[r.idx] = v
	r.idx = (r.idx + 1) % r.maxLen
}

// sequentialData returns the samples oldest first.
func (r *ring) sequentialData() []int {
	start := r.idx
	sp := r.pool.Get().(*[]int)
	defer func() {
		if cap(*sp) <= maxPooled {
			r.pool.Put(sp)
		}
	}()
	out := (*sp)[:0]
	out = append(out, r.data[start:]...)
	out = append(out, r.data[:start]...)
	*sp = out
	return out // want `useafterput`
}

func Dump(vals []int, n int) []int {
	r := newRing(n)
	for _, v := range vals {
		r.push(v)
	}
	return r.sequentialData()
}
