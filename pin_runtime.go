//go:build !poolkit_portable && !go1.27

package pool

import "github.com/poolkit/pool/internal/runtimex"

// The fast path pins the goroutine to its P with runtime.procPin, as
// sync.Pool does: until procUnpin the goroutine cannot be preempted, no
// other goroutine runs on the P, and no GC stop-the-world phase can start,
// so the P's shard needs no lock and the trimmer can wait for a GC cycle to
// know that nobody still uses a block it swapped out.
//
// This relies on procPin being reachable with go:linkname and keeping these
// semantics, which the Go toolchain does not promise. The build constraint
// admits only the toolchains on which the exclusivity tests
// (TestShardExclusive, TestStressWithGC) have run; newer ones get
// pin_portable.go until they are verified. The tag poolkit_portable selects
// the portable build on any toolchain.

// pinned reports whether the fast path pins the P (this file) or takes the
// shard's lock (pin_portable.go).
const pinned = true

// enter pins the calling goroutine to its P and returns the P's shard, or
// nil if the P has none in st yet. The caller must call st.exit with the
// result, whatever it is, before doing anything that may block, allocate
// much or call user code. The fast paths write st.at(pin()) instead, which
// is the same but inlines.
func (st *state[T]) enter() *shard[T] { return st.at(pin()) }

// pin pins the calling goroutine to its P and returns the P's id.
func pin() int { return runtimex.ProcPin() }

// at returns the shard of P i, the caller's P, which pinned it.
func (st *state[T]) at(i int) (s *shard[T]) {
	if uint(i) < uint(len(st.shards)) {
		s = st.shards[i].Load()
		if raceEnabled && s != nil {
			raceLock(&s.rl)
		}
	}
	return s
}

// exit undoes enter.
func (st *state[T]) exit(s *shard[T]) {
	if raceEnabled && s != nil {
		raceUnlock(&s.rl)
	}
	runtimex.ProcUnpin()
}

// lockOwner and unlockOwner order another goroutine's (Stats', the
// trimmer's) reads of the owner's data after the owner's writes, for the
// race detector only: with pinning the trimmer swaps blocks without a lock
// and reads them after a GC cycle, and Stats' reads are approximate.
func (s *shard[T]) lockOwner()   { s.rl.LockUnpinned() }
func (s *shard[T]) unlockOwner() { s.rl.UnlockUnpinned() }

// slotToCreate returns the index of the shard attach must create: the
// caller's P id.
func (st *state[T]) slotToCreate() int {
	i := runtimex.ProcPin()
	runtimex.ProcUnpin()
	return i
}

// hint returns the shard whose shared list a slow path should try first:
// its P's, to spread the lists' lock traffic.
func hint(n int) int {
	i := runtimex.ProcPin()
	runtimex.ProcUnpin()
	if i < n {
		return i
	}
	return 0
}

// stealLocal reports false: a pinned goroutine can reach only its own P's
// block (as with sync.Pool's private slots); the others' objects come back
// through the shared lists and trimming.
func (st *state[T]) stealLocal() (x T, ok bool) { return x, false }
