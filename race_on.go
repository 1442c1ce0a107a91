//go:build race

package pool

import (
	"math/rand/v2"
	"sync/atomic"

	"github.com/poolkit/pool/internal/runtimex"
)

// raceEnabled reports whether the race detector is on.
const raceEnabled = true

// raceDrop reports whether Put should drop its argument: 1 in 4 under the
// race detector, as sync.Pool does, so that tests of code that uses a Pool
// cannot come to rely on reuse.
func raceDrop() bool { return rand.Uint32()%4 == 0 }

// Section helpers (see slots.go). Under the race detector the atomic
// operations and lock accesses in a section are calls into the detector,
// where the goroutine could be preempted, so a section pins it; the race
// locks show the detector the order that pinning gives the accesses.

//go:nosplit
func sectionEnter() { runtimex.ProcPin() }

//go:nosplit
func sectionExit() { runtimex.ProcUnpin() }

func raceLock(l *runtimex.RaceLock) { l.Lock() }

func raceUnlock(l *runtimex.RaceLock) { l.Unlock() }

func loadUintptr(p *uintptr) uintptr { return atomic.LoadUintptr(p) }

func loadInt32(p *int32) int32 { return atomic.LoadInt32(p) }
