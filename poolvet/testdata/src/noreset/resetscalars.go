package noreset

import "sync"

// hpackState's Reset empties the dynamic table but leaves tableSize,
// which Parse reads and updates: a pooled state starts the next
// connection with the last one's size (dgrr/http2 28da461d).
type hpackState struct {
	fields    map[uint64][]byte
	tableSize int
}

var hpackStates = sync.Pool{New: func() any { return &hpackState{fields: map[uint64][]byte{}} }}

func acquireHpackState() *hpackState { return hpackStates.Get().(*hpackState) }

func releaseHpackState(h *hpackState) {
	h.Reset()
	hpackStates.Put(h)
}

func (h *hpackState) Reset() { // want `Reset leaves the field tableSize of hpackState as the last user set it, and Parse reads it before writing it`
	for k := range h.fields {
		delete(h.fields, k)
	}
}

func (h *hpackState) Parse(idx uint64, v []byte) int {
	if old, ok := h.fields[idx]; ok {
		h.tableSize -= len(old)
	}
	h.fields[idx] = v
	h.tableSize += len(v)
	return h.tableSize
}

// tableState's Reset clears its size too: fine.
type tableState struct {
	fields    map[uint64][]byte
	tableSize int
}

var tableStates = sync.Pool{New: func() any { return &tableState{fields: map[uint64][]byte{}} }}

func releaseTableState(h *tableState) {
	h.Reset()
	tableStates.Put(h)
}

func (h *tableState) Reset() {
	clear(h.fields)
	h.tableSize = 0
}

func (h *tableState) Parse(idx uint64, v []byte) int {
	h.fields[idx] = v
	h.tableSize += len(v)
	return h.tableSize
}

// optEncoder keeps an option across ResetWriter on purpose, and its Reset
// leaves a field that only its constructor-like getter sets: fine.
type optEncoder struct {
	buf    []byte
	flags  int
	limit  int
	closed bool
}

var optEncoders = sync.Pool{New: func() any { return new(optEncoder) }}

func getOptEncoder(limit int) *optEncoder {
	e := optEncoders.Get().(*optEncoder)
	e.limit = limit
	return e
}

func putOptEncoder(e *optEncoder) {
	e.Reset()
	optEncoders.Put(e)
}

func (e *optEncoder) SetFlags(f int) { e.flags |= f }

func (e *optEncoder) ResetWriter() { e.buf = e.buf[:0] }

func (e *optEncoder) Reset() {
	e.buf = e.buf[:0]
	e.flags = 0
	e.closed = false
}

func (e *optEncoder) Encode(v byte) {
	if len(e.buf) < e.limit && e.flags >= 0 {
		e.buf = append(e.buf, v)
	}
}

// A flag the Get wrapper sets again on every object it hands out
// (b.reuse()) is not the last user's state, though the Reset leaves it
// (yarpc's pooled Buffer and its released flag).
type checkedBuf struct {
	data     []byte
	released bool
}

var checkedBufs sync.Pool

func getCheckedBuf() *checkedBuf {
	b, ok := checkedBufs.Get().(*checkedBuf)
	if !ok {
		return &checkedBuf{}
	}
	b.reuse()
	return b
}

func (b *checkedBuf) reuse() { b.released = false }

func (b *checkedBuf) check() {
	if b.released {
		panic("use of a released buffer")
	}
}

func (b *checkedBuf) Write(p []byte) {
	b.check()
	b.data = append(b.data, p...)
}

func (b *checkedBuf) Reset() {
	b.data = b.data[:0]
}

func (b *checkedBuf) Release() { // want Release:`pool:put\(0\)\+reset`
	b.Reset()
	b.released = true
	if cap(b.data) > 1<<16 {
		return
	}
	checkedBufs.Put(b)
}
