package noreset

import "sync"

// A typed pool that boxes its values (prometheus's zeropool): Put takes a
// slice as it is, so a truncation that leaves the elements set keeps what
// they point to alive (prometheus/prometheus#13712).

type boxPool[T any] struct {
	items sync.Pool
	boxes sync.Pool
}

func (p *boxPool[T]) Get() T {
	got := p.items.Get()
	if got == nil {
		var zero T
		return zero
	}
	box := got.(*T)
	item := *box
	var zero T
	*box = zero
	p.boxes.Put(box)
	return item
}

func (p *boxPool[T]) Put(item T) { // want Put:`pool:put\(1\)`
	var box *T
	if spare := p.boxes.Get(); spare != nil {
		box = spare.(*T)
	} else {
		box = new(T)
	}
	*box = item
	p.items.Put(box)
}

type boxedSeries struct {
	labels []string
}

type boxedExemplar struct {
	ref    uint64
	labels []string
}

var (
	boxedSeriesPool   boxPool[[]*boxedSeries]
	boxedExemplarPool boxPool[[]boxedExemplar]
	boxedRefPool      boxPool[[]uint64]
)

func putBoxedSeries(b []*boxedSeries) {
	boxedSeriesPool.Put(b[:0]) // want `noreset`
}

func putBoxedExemplars(b []boxedExemplar) {
	if b == nil {
		return
	}
	boxedExemplarPool.Put(b[:0]) // want `noreset`
}

func putBoxedSeriesCleared(b []*boxedSeries) {
	clear(b)
	boxedSeriesPool.Put(b[:0])
}

func putBoxedSeriesNiled(b []*boxedSeries) {
	for i := range b {
		b[i] = nil
	}
	boxedSeriesPool.Put(b[:0])
}

func putBoxedExemplarsEmptied(b []boxedExemplar) {
	for i := range b {
		b[i].labels = nil
	}
	boxedExemplarPool.Put(b[:0])
}

// Plain numbers refer to nothing.
func putBoxedRefs(b []uint64) {
	boxedRefPool.Put(b[:0])
}
