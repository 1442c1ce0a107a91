//go:build race

package pool

import (
	"math/rand/v2"
	"sync"
)

// raceEnabled reports whether the race detector is on.
const raceEnabled = true

// raceLock makes a block's ownership visible to the race detector. P pinning
// gives goroutines on one P exclusive, ordered access to that P's block, but
// the detector cannot see that ordering, so under -race every block access
// also takes this (uncontended) mutex.
type raceLock struct{ mu sync.Mutex }

func (l *raceLock) lock()   { l.mu.Lock() }
func (l *raceLock) unlock() { l.mu.Unlock() }

// raceDrop reports whether Put should drop its argument: 1 in 4 under the
// race detector, as sync.Pool does, so that tests of code that uses a Pool
// cannot come to rely on reuse.
func raceDrop() bool { return rand.Uint32()%4 == 0 }
