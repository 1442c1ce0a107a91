package runtimex

import (
	"runtime"
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
