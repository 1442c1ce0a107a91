//go:build race

package pool

import (
	"math/rand/v2"
	"sync/atomic"

	"github.com/poolkit/pool/internal/runtimex"
)

// raceEnabled reports whether the race detector is on.
const raceEnabled = true

// raceLock makes a block's ownership visible to the race detector. P pinning
// gives goroutines on one P exclusive, ordered access to that P's block, but
// the detector cannot see that ordering, so under -race every block access
// also takes this lock.
//
// It is a spin lock, not a sync.Mutex: the owner takes it while pinned to its
// P, where it must never park. Every holder is pinned (lockUnpinned pins
// goroutines that are not), so a holder cannot be preempted and every wait
// is bounded by a few instructions.
type raceLock struct{ v atomic.Int32 }

func (l *raceLock) lock() {
	// No Gosched here: a pinned goroutine must not enter the scheduler.
	// The wait ends when the holder's thread runs again.
	for !l.v.CompareAndSwap(0, 1) {
		for l.v.Load() != 0 {
		}
	}
}

func (l *raceLock) unlock() { l.v.Store(0) }

// lockUnpinned takes the lock from a goroutine that is not pinned (Stats,
// the trimmer), pinning it until unlockUnpinned.
func (l *raceLock) lockUnpinned() {
	runtimex.ProcPin()
	l.lock()
}

func (l *raceLock) unlockUnpinned() {
	l.unlock()
	runtimex.ProcUnpin()
}

// raceDrop reports whether Put should drop its argument: 1 in 4 under the
// race detector, as sync.Pool does, so that tests of code that uses a Pool
// cannot come to rely on reuse.
func raceDrop() bool { return rand.Uint32()%4 == 0 }
