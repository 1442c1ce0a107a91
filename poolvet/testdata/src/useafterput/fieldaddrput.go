package useafterput

import "sync"

// A struct field whose address is what goes into the pool
// (coder/websocket a02cbef's sliding window).

type faWindow struct{ buf []byte }

var faPool sync.Pool

func (w *faWindow) close() {
	faPool.Put(&w.buf)
	w.buf = nil // want `field buf is written here, but its address went into the pool at line 13`
}

func (w *faWindow) closeRead() int {
	faPool.Put(&w.buf)
	return cap(w.buf) // want `field buf is read here`
}

// Silent: the pointer held by the field goes into the pool, and the field
// is cleared after the Put.
type faHolder struct{ buf *[]byte }

func (h *faHolder) close() {
	faPool.Put(h.buf)
	h.buf = nil
}

// Silent: a copy of the field goes into the pool.
func (w *faWindow) closeCopy() {
	b := w.buf
	faPool.Put(&b)
	w.buf = nil
}

// Silent: each iteration puts the field of another object.
type faBatch struct{ records []int }

func faFailAll(batches []*faBatch) {
	for _, b := range batches {
		for i := range b.records {
			b.records[i] = 0
		}
		faPool.Put(&b.records)
	}
}
