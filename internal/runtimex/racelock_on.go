//go:build race

package runtimex

import "sync/atomic"

// RaceEnabled reports whether the race detector is on.
const RaceEnabled = true

// RaceLock makes per-slot data visible to the race detector as guarded.
// Under the detector, package pool's sections pin their goroutine, which
// gives goroutines on one thread exclusive, ordered access to that slot's
// data, but the detector cannot see that ordering, so under -race every
// access also takes this lock.
//
// It is a spin lock, not a sync.Mutex: its main users hold it while pinned
// to their P, where a goroutine must never park (the runtime dies with
// "schedule: holding locks"). Every holder is pinned — LockUnpinned pins
// goroutines that are not — so a holder cannot be preempted and every wait
// lasts only until the holder's thread runs again.
type RaceLock struct{ v atomic.Int32 }

// Lock takes the lock; the caller must be pinned.
func (l *RaceLock) Lock() {
	// No Gosched: a pinned goroutine must not enter the scheduler.
	for !l.v.CompareAndSwap(0, 1) {
		for l.v.Load() != 0 {
		}
	}
}

// Unlock releases the lock.
func (l *RaceLock) Unlock() { l.v.Store(0) }

// LockUnpinned pins the calling goroutine and takes the lock.
func (l *RaceLock) LockUnpinned() {
	ProcPin()
	l.Lock()
}

// UnlockUnpinned releases the lock and unpins.
func (l *RaceLock) UnlockUnpinned() {
	l.Unlock()
	ProcUnpin()
}
