package noreset

import (
	"bytes"
	"sync"
)

// Truncation by a composite literal copied over the object (*b =
// batchT{items: b.items[:0]}), in a deferred closure or not: the elements
// past the new length still point to the previous user's buffers.
type litItem struct {
	ref *bytes.Buffer
}

type litBatch struct {
	items []litItem
	ids   []int
}

var litBatchPool = sync.Pool{New: func() any { return new(litBatch) }}

func fillLit(b *litBatch, refs []*bytes.Buffer) {
	for i, r := range refs {
		b.items = append(b.items, litItem{ref: r})
		b.ids = append(b.ids, i)
	}
}

func litDeferred(refs []*bytes.Buffer) int {
	b := litBatchPool.Get().(*litBatch)
	defer func() {
		*b = litBatch{items: b.items[:0], ids: b.ids[:0]}
		litBatchPool.Put(b) // want `b goes back to the pool with items truncated but its elements not cleared`
	}()
	fillLit(b, refs)
	return len(b.items)
}

func litPlain(refs []*bytes.Buffer) int {
	b := litBatchPool.Get().(*litBatch)
	fillLit(b, refs)
	n := len(b.items)
	*b = litBatch{items: b.items[:0], ids: b.ids[:0]}
	litBatchPool.Put(b) // want `b goes back to the pool with items truncated but its elements not cleared`
	return n
}

// The elements are cleared first: not reported.
func litCleared(refs []*bytes.Buffer) int {
	b := litBatchPool.Get().(*litBatch)
	defer func() {
		clear(b.items)
		*b = litBatch{items: b.items[:0], ids: b.ids[:0]}
		litBatchPool.Put(b)
	}()
	fillLit(b, refs)
	return len(b.items)
}
