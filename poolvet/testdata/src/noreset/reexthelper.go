package noreset

import "sync"

type span struct {
	offset int32
	length uint32
}

type histCtx struct {
	schema int32
	spans  []span
}

func (h *histCtx) reset() {
	h.schema = 0
	h.spans = h.spans[:0]
}

var histCtxPool = sync.Pool{New: func() any { return new(histCtx) }}

func putHistCtx(h *histCtx) {
	if cap(h.spans) > 1024 {
		return
	}
	h.reset()
	histCtxPool.Put(h)
}

// The slot uncovered past the length keeps the offset or length of a
// previous histogram when the wire omits one (VictoriaMetrics#11040).
func appendSpan(spans []span, fields [][2]int64) []span {
	if len(spans) < cap(spans) {
		spans = spans[:len(spans)+1] // want `appendSpan re-slices the spans it is passed one past its length without clearing the element it uncovers, and h goes back to the pool \(line 27\) with spans truncated`
	} else {
		spans = append(spans, span{})
	}
	sp := &spans[len(spans)-1]
	for _, f := range fields {
		switch f[0] {
		case 1:
			sp.offset = int32(f[1])
		case 2:
			sp.length = uint32(f[1])
		}
	}
	return spans
}

func decodeHist(schema int32, msgs [][][2]int64) []span {
	h := histCtxPool.Get().(*histCtx)
	defer putHistCtx(h)
	h.schema = schema
	for _, m := range msgs {
		h.spans = appendSpan(h.spans, m)
	}
	return append([]span(nil), h.spans...)
}

type level struct {
	depth int
	count int
}

type bookCtx struct {
	levels []level
}

func (b *bookCtx) reset() {
	b.levels = b.levels[:0]
}

var bookCtxPool = sync.Pool{New: func() any { return new(bookCtx) }}

// Silent: the helper clears the element it uncovers.
func appendLevel(levels []level, d, n int) []level {
	if len(levels) < cap(levels) {
		levels = levels[:len(levels)+1]
		levels[len(levels)-1] = level{}
	} else {
		levels = append(levels, level{})
	}
	lv := &levels[len(levels)-1]
	if d > 0 {
		lv.depth = d
	}
	lv.count = n
	return levels
}

func buildBook(ds []int) int {
	b := bookCtxPool.Get().(*bookCtx)
	for i, d := range ds {
		b.levels = appendLevel(b.levels, d, i)
	}
	n := len(b.levels)
	b.reset()
	bookCtxPool.Put(b)
	return n
}

type slotPair struct {
	key   []byte
	value []byte
}

type slotArgs struct {
	kvs []slotPair
}

func (a *slotArgs) Reset() { a.kvs = a.kvs[:0] }

var slotArgsPool = sync.Pool{New: func() any { return new(slotArgs) }}

func releaseSlotArgs(a *slotArgs) {
	if cap(a.kvs) > 1024 {
		return
	}
	a.Reset()
	slotArgsPool.Put(a)
}

// Silent: the helper only hands out the slot, whose buffers the object
// reuses on purpose; the caller sets every field (fasthttp's allocArg).
func allocSlot(h []slotPair) ([]slotPair, *slotPair) {
	n := len(h)
	if cap(h) > n {
		h = h[:n+1]
	} else {
		h = append(h, slotPair{})
	}
	return h, &h[n]
}

func addSlot(a *slotArgs, k, v string) {
	var kv *slotPair
	a.kvs, kv = allocSlot(a.kvs)
	kv.key = append(kv.key[:0], k...)
	kv.value = append(kv.value[:0], v...)
}

func countSlots(pairs map[string]string) int {
	a := slotArgsPool.Get().(*slotArgs)
	defer releaseSlotArgs(a)
	for k, v := range pairs {
		addSlot(a, k, v)
	}
	return len(a.kvs)
}
