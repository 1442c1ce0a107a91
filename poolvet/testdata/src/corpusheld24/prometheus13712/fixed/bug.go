// Package bug is the fixed twin of prometheus/prometheus#13712
// (https://github.com/prometheus/prometheus/pull/13712): putSeriesBuffer nils
// every *memSeries and putExemplarBuffer empties every exemplar's labels
// before the buffers go back to their pools.
//
// Check: noreset (no report expected).
package bug

import "sync"

// Pool is a typed pool that stores pointers to T so that Put does not box.
type Pool[T any] struct {
	items    sync.Pool
	pointers sync.Pool
}

// Get returns a pooled T, or the zero value when the pool is empty.
func (p *Pool[T]) Get() T {
	pooled := p.items.Get()
	if pooled == nil {
		var zero T
		return zero
	}
	ptr := pooled.(*T)
	item := *ptr
	var zero T
	*ptr = zero
	p.pointers.Put(ptr)
	return item
}

// Put stores item, reusing a spare box when one is available.
func (p *Pool[T]) Put(item T) {
	var ptr *T
	if pooled := p.pointers.Get(); pooled != nil {
		ptr = pooled.(*T)
	} else {
		ptr = new(T)
	}
	*ptr = item
	p.items.Put(ptr)
}

// Label is one name/value pair.
type Label struct {
	Name, Value string
}

// Labels is a sorted label set.
type Labels []Label

// EmptyLabels returns a label set with no labels.
func EmptyLabels() Labels { return Labels{} }

// Exemplar is an example trace attached to a sample.
type Exemplar struct {
	Labels Labels
	Value  float64
	Ts     int64
}

type exemplarWithSeriesRef struct {
	ref      uint64
	exemplar Exemplar
}

type memSeries struct {
	ref    uint64
	lset   Labels
	chunks [][]byte
}

// Head is the in-memory block.
type Head struct {
	exemplarsPool Pool[[]exemplarWithSeriesRef]
	seriesPool    Pool[[]*memSeries]
	series        map[uint64]*memSeries
}

func (h *Head) getExemplarBuffer() []exemplarWithSeriesRef {
	b := h.exemplarsPool.Get()
	if b == nil {
		return make([]exemplarWithSeriesRef, 0, 512)
	}
	return b
}

func (h *Head) putExemplarBuffer(b []exemplarWithSeriesRef) {
	if b == nil {
		return
	}
	for i := range b { // drop label data before pooling
		b[i].exemplar.Labels = EmptyLabels()
	}

	h.exemplarsPool.Put(b[:0])
}

func (h *Head) getSeriesBuffer() []*memSeries {
	b := h.seriesPool.Get()
	if b == nil {
		return make([]*memSeries, 0, 512)
	}
	return b
}

func (h *Head) putSeriesBuffer(b []*memSeries) {
	for i := range b { // drop series pointers before pooling
		b[i] = nil
	}
	h.seriesPool.Put(b[:0])
}

type headAppender struct {
	head         *Head
	sampleSeries []*memSeries
	exemplars    []exemplarWithSeriesRef
}

func (h *Head) appender() *headAppender {
	return &headAppender{
		head:         h,
		sampleSeries: h.getSeriesBuffer(),
		exemplars:    h.getExemplarBuffer(),
	}
}

// Append records a sample for the series with the given ref.
func (a *headAppender) Append(ref uint64) {
	if s := a.head.series[ref]; s != nil {
		a.sampleSeries = append(a.sampleSeries, s)
	}
}

// AppendExemplar buffers an exemplar for the series with the given ref.
func (a *headAppender) AppendExemplar(ref uint64, e Exemplar) {
	a.exemplars = append(a.exemplars, exemplarWithSeriesRef{ref: ref, exemplar: e})
}

// Commit writes the buffered data and gives the scratch buffers back.
func (a *headAppender) Commit() error {
	defer a.head.putSeriesBuffer(a.sampleSeries)
	defer a.head.putExemplarBuffer(a.exemplars)

	for _, s := range a.sampleSeries {
		s.chunks = append(s.chunks, nil)
	}
	for range a.exemplars {
		// exemplar storage elided
	}
	return nil
}

// gc drops series from the head; pooled buffers may still point at them.
func (h *Head) gc(refs []uint64) {
	for _, ref := range refs {
		delete(h.series, ref)
	}
}
