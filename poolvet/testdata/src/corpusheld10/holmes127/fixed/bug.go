// Package fixed is mosn/holmes#127 as merged: the ordered copy is a fresh
// slice that belongs to the caller, no pool involved.
package fixed

type ring struct {
	data   []int
	idx    int
	maxLen int
}

func newRing(n int) *ring {
	return &ring{maxLen: n}
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
	out := make([]int, 0, len(r.data))
	out = append(out, r.data[start:]...)
	out = append(out, r.data[:start]...)
	return out
}

func Dump(vals []int, n int) []int {
	r := newRing(n)
	for _, v := range vals {
		r.push(v)
	}
	return r.sequentialData()
}
