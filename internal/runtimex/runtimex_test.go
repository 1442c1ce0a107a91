package runtimex

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

func TestProcPinRange(t *testing.T) {
	for range 100 {
		pid := ProcPin()
		ProcUnpin()
		if pid < 0 || pid >= runtime.GOMAXPROCS(0) {
			t.Fatalf("ProcPin() = %d; want in [0, %d)", pid, runtime.GOMAXPROCS(0))
		}
	}
}

func TestGCCyclesCountsForcedGC(t *testing.T) {
	before := GCCycles()
	runtime.GC()
	runtime.GC()
	if got := GCCycles(); got < before+2 {
		t.Fatalf("GCCycles() after two runtime.GC = %d; want >= %d", got, before+2)
	}
}

func TestMemoryPressure(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	runtime.GC()
	if MemoryPressure() {
		t.Fatal("MemoryPressure() = true without a memory limit")
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	debug.SetMemoryLimit(int64(ms.HeapAlloc)) // at or below the live heap
	runtime.GC()
	if !MemoryPressure() {
		t.Fatal("MemoryPressure() = false with the limit at the live heap")
	}
	debug.SetMemoryLimit(math.MaxInt64)
	runtime.GC()
	if MemoryPressure() {
		t.Fatal("MemoryPressure() = true after the limit was lifted")
	}
}
