// Package bug reproduces the shape of prometheus/prometheus#12189
// (https://github.com/prometheus/prometheus/pull/12189, "Use zeropool.Pool to
// workaround SA6002"): the TSDB head keeps its per-appender sample buffers in
// a sync.Pool of []RefSample and puts them back as slices (b[:0]), with a
// lint:ignore for SA6002. Every Put boxes a new slice header on the heap;
// the PR measured the cost and moved these pools to a typed pool.
//
// The size guard in putAppendBuffer is not in the original; it is here so
// that the only bug left is the boxing one.
//
// Check: nonpointer (a slice value put into a sync.Pool).
package bug

import "sync"

type RefSample struct {
	Ref uint64
	T   int64
	V   float64
}

type memSeries struct {
	lastT int64
	lastV float64
}

// maxAppendBufferCap bounds the buffers kept in the pool.
const maxAppendBufferCap = 1 << 16

type Head struct {
	mtx        sync.Mutex
	series     map[uint64]*memSeries
	appendPool sync.Pool
}

func NewHead() *Head {
	return &Head{series: map[uint64]*memSeries{}}
}

func (h *Head) getAppendBuffer() []RefSample {
	b := h.appendPool.Get()
	if b == nil {
		return make([]RefSample, 0, 512)
	}
	return b.([]RefSample)
}

func (h *Head) putAppendBuffer(b []RefSample) {
	if cap(b) > maxAppendBufferCap {
		return
	}
	h.appendPool.Put(b[:0]) // want `nonpointer`
}

type headAppender struct {
	head    *Head
	samples []RefSample
}

func (h *Head) Appender() *headAppender {
	return &headAppender{head: h, samples: h.getAppendBuffer()}
}

func (a *headAppender) Append(ref uint64, t int64, v float64) {
	a.samples = append(a.samples, RefSample{Ref: ref, T: t, V: v})
}

func (a *headAppender) Commit() error {
	defer a.head.putAppendBuffer(a.samples)

	a.head.mtx.Lock()
	for _, s := range a.samples {
		ms := a.head.series[s.Ref]
		if ms == nil {
			ms = &memSeries{}
			a.head.series[s.Ref] = ms
		}
		ms.lastT, ms.lastV = s.T, s.V
	}
	a.head.mtx.Unlock()
	a.samples = nil
	return nil
}
