//go:build !race

package pool

// raceEnabled reports whether the race detector is on. Without it, the
// engine relies on P pinning alone for exclusive access to a P's block.
const raceEnabled = false

// raceLock is a lock that exists only under the race detector. Without the
// detector, a block is accessed only by the goroutine pinned to its P (and,
// after a GC grace period, by the trimmer), so it needs no lock at all.
type raceLock struct{}

func (*raceLock) lock()           {}
func (*raceLock) unlock()         {}
func (*raceLock) lockUnpinned()   {}
func (*raceLock) unlockUnpinned() {}

func raceDrop() bool { return false }
