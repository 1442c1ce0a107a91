//go:build poolkit_portable || go1.27

package pool

import "math/rand/v2"

// The portable fast path: instead of pinning the P (pin_runtime.go), a
// goroutine locks one of the shards, chosen at random and trying a few
// before it waits. It relies on nothing the Go toolchain does not promise,
// and is used on toolchains the engine has not been verified on.

const pinned = false

// enter locks a shard and returns it, or nil if the shards do not exist
// yet. It takes the first shard it can lock without waiting, so that a
// goroutine alone finds its objects where it left them, and waits for a
// random one when all are taken. The caller must call st.exit with the
// result.
func (st *state[T]) enter() *shard[T] {
	return st.at(pin())
}

// pin does nothing: the portable build does not pin.
func pin() int { return 0 }

// at is enter's work; i is ignored.
func (st *state[T]) at(int) *shard[T] {
	for i := range st.shards {
		s := st.shards[i].Load()
		if s == nil {
			return nil
		}
		if s.own.TryLock() {
			return s
		}
	}
	if len(st.shards) == 0 {
		return nil
	}
	s := st.shards[rand.IntN(len(st.shards))].Load()
	s.own.Lock()
	return s
}

// exit undoes enter.
func (st *state[T]) exit(s *shard[T]) {
	if s != nil {
		s.own.Unlock()
	}
}

// lockOwner and unlockOwner exclude the owner of s while another goroutine
// (Stats, the trimmer) reads its local block or swaps it out.
func (s *shard[T]) lockOwner()   { s.own.Lock() }
func (s *shard[T]) unlockOwner() { s.own.Unlock() }

// slotToCreate returns the index of the shard attach must create: the
// first one missing, where enter stopped.
func (st *state[T]) slotToCreate() int {
	for i := range st.shards {
		if st.shards[i].Load() == nil {
			return i
		}
	}
	return 0
}

// hint returns the shard whose shared list a slow path should try first.
func hint(n int) int { return rand.IntN(max(n, 1)) }

// stealLocal pops an object from another shard's local block: without
// pinning, the goroutine that Put it may have used any shard.
func (st *state[T]) stealLocal() (x T, ok bool) {
	for i := range st.shards {
		s := st.shards[i].Load()
		if s == nil {
			continue
		}
		s.own.Lock()
		x, ok = s.local.Load().pop()
		if ok {
			// Its count unit and bytes go back through the free pools.
			s.own.Unlock()
			return x, true
		}
		s.own.Unlock()
	}
	return x, false
}
