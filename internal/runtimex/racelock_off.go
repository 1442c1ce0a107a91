//go:build !race

package runtimex

// RaceEnabled reports whether the race detector is on.
const RaceEnabled = false

// RaceLock is a lock that exists only under the race detector; see
// racelock_on.go. Without the detector, the data it guards is accessed only
// by the goroutine pinned to its P (or after a GC grace period), so it needs
// no lock and RaceLock is empty.
type RaceLock struct{}

func (*RaceLock) Lock()           {}
func (*RaceLock) Unlock()         {}
func (*RaceLock) LockUnpinned()   {}
func (*RaceLock) UnlockUnpinned() {}
