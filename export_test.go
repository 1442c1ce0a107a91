package pool

import (
	"io"
	"runtime"
	"time"
	"unsafe"

	"github.com/poolkit/pool/internal/pooldebug"
	"github.com/poolkit/pool/internal/runtimex"
)

// RaceEnabled reports whether the tests run under the race detector, where
// Put drops one object in four on purpose.
const RaceEnabled = raceEnabled

// Pinned reports whether the engine pins the P (false: the portable build).
const Pinned = pinned

// ForceGC runs GC cycles back to back, a millisecond apart, until stop is
// closed.
func ForceGC(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		default:
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
	}
}

// GCAndTrim forces a GC cycle and waits until the trimmer has processed it.
// It reports false if the trimmer did not catch up within 10 seconds.
func GCAndTrim() bool {
	runtime.GC()
	want := runtimex.GCCycles()
	deadline := time.Now().Add(10 * time.Second)
	for trimmer.done.Load() < want {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(100 * time.Microsecond)
	}
	return true
}

// ShardSize and ShardOwnerOffset expose the padded layout for TestShardPadding.
func ShardSize() uintptr { return unsafe.Sizeof(shard[*int]{}) }

func ShardOwnerOffset() (shared uintptr) {
	var s shard[*int]
	return unsafe.Offsetof(s.shardShared)
}

// BlockCap is the capacity of a per-P block.
const BlockCap = blockCap

// DebugIdle returns the number of objects in p's double-Put idle set.
func DebugIdle[T any](p *Pool[T]) int {
	st := p.st.Load()
	if st == nil {
		return 0
	}
	d := st.c.debug()
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.idle)
}

// Shards returns how many shards p has created (Ps that used it).
func Shards[T any](p *Pool[T]) int {
	st := p.st.Load()
	if st == nil {
		return 0
	}
	n := 0
	for i := range st.shards {
		if st.shards[i].Load() != nil {
			n++
		}
	}
	return n
}

// SetDebugOutput redirects the default reporter's leak lines (nil: stderr).
func SetDebugOutput(w io.Writer) { pooldebug.SetOutput(w) }
