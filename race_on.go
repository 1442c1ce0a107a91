//go:build race

package pool

import "math/rand/v2"

// raceEnabled reports whether the race detector is on.
const raceEnabled = true

// raceDrop reports whether Put should drop its argument: 1 in 4 under the
// race detector, as sync.Pool does, so that tests of code that uses a Pool
// cannot come to rely on reuse.
func raceDrop() bool { return rand.Uint32()%4 == 0 }
