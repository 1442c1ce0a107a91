//go:build race

package pool

import (
	"math/rand/v2"

	"github.com/poolkit/pool/internal/runtimex"
)

// raceEnabled reports whether the race detector is on.
const raceEnabled = true

// raceDrop reports whether Put should drop its argument: 1 in 4 under the
// race detector, as sync.Pool does, so that tests of code that uses a Pool
// cannot come to rely on reuse.
func raceDrop() bool { return rand.Uint32()%4 == 0 }

// Under the race detector every access to a P's data also takes a race
// lock: pinning gives goroutines on one P exclusive, ordered access to that
// P's shard, but the detector cannot see that ordering.
func raceLock(l *runtimex.RaceLock) { l.Lock() }

func raceUnlock(l *runtimex.RaceLock) { l.Unlock() }
