//go:build !race

package runtimex

// RaceEnabled reports whether the race detector is on.
const RaceEnabled = false

// RaceLock is a lock that exists only under the race detector; see
// racelock_on.go. Without the detector, the data it guards is accessed only
// in sections of one slot (see package pool's slots.go), or after a GC grace
// period, so it needs no lock and RaceLock is empty.
type RaceLock struct{}

//go:nosplit
func (*RaceLock) Lock() {}

//go:nosplit
func (*RaceLock) Unlock() {}

//go:nosplit
func (*RaceLock) LockUnpinned() {}

//go:nosplit
func (*RaceLock) UnlockUnpinned() {}
