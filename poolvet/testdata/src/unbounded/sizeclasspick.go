package unbounded

import "sync"

// An allocator grows what it gets to the size asked for, and Free picks the
// pool by size with no upper bound: one huge message's buffer stays in the
// big pool (lesismal/nbio 28c80af).
var (
	pickSmall = &sync.Pool{New: func() any { b := make([]byte, 64); return &b }}
	pickBig   = &sync.Pool{New: func() any { b := make([]byte, 4096); return &b }}
)

func pickMalloc(size int) []byte {
	pbuf := pickBig.Get().(*[]byte)
	if need := size - cap(*pbuf); need > 0 {
		*pbuf = append((*pbuf)[:cap(*pbuf)], make([]byte, need)...)
	}
	return (*pbuf)[:size]
}

func pickFree(buf []byte) {
	pool := pickSmall
	if cap(buf) >= 4096 {
		pool = pickBig
	}
	pool.Put(&buf) // want `&buf \(\*\[\]byte\) is put into the pool without a capacity check`
}

// The fix drops what is above a bound: silent.
func pickFreeBounded(buf []byte) {
	if cap(buf) > 1<<20 {
		return
	}
	pool := pickSmall
	if cap(buf) >= 4096 {
		pool = pickBig
	}
	pool.Put(&buf)
}
