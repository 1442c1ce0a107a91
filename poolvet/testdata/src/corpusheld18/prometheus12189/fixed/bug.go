// Package fixed is the fix of prometheus/prometheus#12189
// (https://github.com/prometheus/prometheus/pull/12189) written with the
// standard library: the pool holds *[]RefSample, so Put stores a pointer and
// allocates nothing. (The PR used a typed pool, zeropool.Pool, to the same
// effect.)
package fixed

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

func (h *Head) getAppendBuffer() *[]RefSample {
	if b, ok := h.appendPool.Get().(*[]RefSample); ok {
		return b
	}
	b := make([]RefSample, 0, 512)
	return &b
}

func (h *Head) putAppendBuffer(b *[]RefSample) {
	if cap(*b) > maxAppendBufferCap {
		return
	}
	*b = (*b)[:0]
	h.appendPool.Put(b)
}

type headAppender struct {
	head    *Head
	samples *[]RefSample
}

func (h *Head) Appender() *headAppender {
	return &headAppender{head: h, samples: h.getAppendBuffer()}
}

func (a *headAppender) Append(ref uint64, t int64, v float64) {
	*a.samples = append(*a.samples, RefSample{Ref: ref, T: t, V: v})
}

func (a *headAppender) Commit() error {
	defer a.head.putAppendBuffer(a.samples)

	a.head.mtx.Lock()
	for _, s := range *a.samples {
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
