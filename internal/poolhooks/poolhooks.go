// Package poolhooks connects poolkit's own packages (bytepool) to engine
// features that are not part of pool.Pool's public API.
//
// The variables are set by package pool during its initialization, so any
// package that imports pool may call them from its own init or later.
package poolhooks

import (
	"sync/atomic"

	"github.com/poolkit/pool/internal/budget"
)

// UnderPressure reports whether the last GC trimming pass found the heap
// goal at 90% or more of the memory limit (GOMEMLIMIT). While it does, pools
// ignore MinIdle and release everything idle at each GC cycle, and bytepool
// should shrink its byte budget. It is cheap: one atomic load.
var UnderPressure func() bool

// SetBudget makes p, a *pool.Pool[T], account weight bytes of b for every
// object it caches: Put reserves them while pinned to its P, from the P's
// credit (so the budget costs no atomic), and drops the object, counting it in *drops,
// when b cannot spare them; the bytes go back when Get hands the object out
// or the trimmer releases it. It also makes the trimmer count released
// objects exactly, which costs it one extra GC cycle of retention for the
// objects it releases from per-thread caches. It must be called before p's first Get
// or Put; it panics if p is not a *pool.Pool.
var SetBudget func(p any, b *budget.Budget, weight int64, drops *atomic.Uint64)
