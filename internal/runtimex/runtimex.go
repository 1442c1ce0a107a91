// Package runtimex reaches the few runtime internals that poolkit's engine
// needs: pinning the current goroutine to its P, and counting GC cycles.
//
// procPin and procUnpin are among the runtime symbols that Go keeps
// reachable through //go:linkname for existing users (go.dev/issue/67401),
// so no linker flag is needed.
package runtimex

import (
	"math"
	"runtime/metrics"
	"sync"
	_ "unsafe" // for go:linkname
)

// ProcPin disables preemption of the calling goroutine and returns the id of
// the P it runs on, in [0, GOMAXPROCS). Until the matching ProcUnpin the
// goroutine stays on that P, no other goroutine runs on it, and no
// stop-the-world phase (and so no GC cycle) can start or finish.
//
// Code between ProcPin and ProcUnpin must be short, must not block, must not
// allocate much and must not call user code.
//
//go:linkname ProcPin runtime.procPin
func ProcPin() int

// MaxProcs is the number of Ps that hold budget credit (internal/budget);
// Ps with larger ids reserve from the budget directly.
const MaxProcs = 256

// ProcUnpin undoes ProcPin.
//
//go:linkname ProcUnpin runtime.procUnpin
func ProcUnpin()

// gcCycles is the runtime/metrics sample read by GCCycles; guarded by gcMu
// because metrics.Read writes into it.
var (
	gcMu      sync.Mutex
	gcSample  = []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	memSample = []metrics.Sample{
		{Name: "/gc/heap/goal:bytes"},
		{Name: "/gc/gomemlimit:bytes"},
	}
)

// PressureThreshold is the fraction of the memory limit (GOMEMLIMIT,
// debug.SetMemoryLimit) at which the heap goal counts as memory pressure.
const PressureThreshold = 0.9

// MemoryPressure reports whether the GC's heap goal has reached
// PressureThreshold of the memory limit: the collector is then working to
// keep the heap under the limit, and caches should let go of what they hold.
// Without a memory limit it reports false. For slow paths only.
func MemoryPressure() bool {
	gcMu.Lock()
	defer gcMu.Unlock()
	metrics.Read(memSample)
	goal, limit := memSample[0].Value.Uint64(), memSample[1].Value.Uint64()
	return limit < math.MaxInt64 && float64(goal) >= PressureThreshold*float64(limit)
}

// GCCycles returns the number of GC cycles completed since the program
// started (forced and automatic). It takes a lock and is meant for slow
// paths only.
func GCCycles() uint64 {
	gcMu.Lock()
	defer gcMu.Unlock()
	metrics.Read(gcSample)
	return gcSample[0].Value.Uint64()
}
