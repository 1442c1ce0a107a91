package bytepool

import "sync/atomic"

// budget counts the idle bytes a Pool holds against MaxBytes.
//
// Invariant: idle == the sum, over the slices cached in the class pools, of
// their class sizes, and idle <= max at all times: reserve only adds when
// the sum stays within max.
type budget struct {
	max  int64
	_    [56]byte     // max is read-only; keep it off idle's cache line
	idle atomic.Int64 // bytes reserved by cached slices
	_    [56]byte     // idle is written on every Get hit and Put
}

func (b *budget) init(max int64) { b.max = max }

// reserve adds n bytes to the idle count and reports true, or reports false
// if that would exceed max.
func (b *budget) reserve(n int64) bool {
	for {
		idle := b.idle.Load()
		if idle+n > b.max {
			return false
		}
		if b.idle.CompareAndSwap(idle, idle+n) {
			return true
		}
	}
}

// release subtracts n bytes reserved earlier.
func (b *budget) release(n int64) { b.idle.Add(-n) }

// load returns the idle byte count.
func (b *budget) load() int64 { return b.idle.Load() }
