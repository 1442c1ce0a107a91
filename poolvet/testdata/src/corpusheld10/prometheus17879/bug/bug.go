// Package bug reproduces the shape of prometheus/prometheus#17879
// (https://github.com/prometheus/prometheus/pull/17879): the TSDB head
// recycles the per-append sample buffers through pools. The put helper for
// histogram samples truncated the slice to length zero and returned it,
// but every element past the new length still pointed at its
// *Histogram, so idle pooled buffers kept those histograms from being
// collected. The fix zeroes the elements before the Put.
//
// Check: noreset (a pooled *[]RefHistogramSample truncated with
// (*b)[:0] and put back without clear; each element holds a pointer).
package bug

import "sync"

type Histogram struct {
	Count   uint64
	Sum     float64
	Buckets []int64
}

type RefHistogramSample struct {
	Ref uint64
	T   int64
	H   *Histogram
}

// maxPooledSamples bounds the buffers kept for reuse.
const maxPooledSamples = 8192

type Head struct {
	histogramsPool sync.Pool
	mu             sync.Mutex
	series         map[uint64][]*Histogram
}

func NewHead() *Head {
	return &Head{series: map[uint64][]*Histogram{}}
}

func (h *Head) getHistogramBuffer() *[]RefHistogramSample {
	b, ok := h.histogramsPool.Get().(*[]RefHistogramSample)
	if !ok {
		s := make([]RefHistogramSample, 0, 512)
		return &s
	}
	return b
}

func (h *Head) putHistogramBuffer(b *[]RefHistogramSample) {
	if cap(*b) > maxPooledSamples {
		return
	}
	*b = (*b)[:0]
	h.histogramsPool.Put(b) // want `noreset`
}

type appender struct {
	head       *Head
	histograms *[]RefHistogramSample
}

func (h *Head) Appender() *appender {
	return &appender{head: h}
}

func (a *appender) AppendHistogram(ref uint64, t int64, hist *Histogram) {
	if a.histograms == nil {
		a.histograms = a.head.getHistogramBuffer()
	}
	*a.histograms = append(*a.histograms, RefHistogramSample{Ref: ref, T: t, H: hist})
}

// Commit moves the buffered samples into the head and recycles the
// buffer.
func (a *appender) Commit() {
	if a.histograms == nil {
		return
	}
	a.head.mu.Lock()
	for _, s := range *a.histograms {
		a.head.series[s.Ref] = append(a.head.series[s.Ref], s.H)
	}
	a.head.mu.Unlock()
	a.head.putHistogramBuffer(a.histograms)
	a.histograms = nil
}
