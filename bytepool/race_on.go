//go:build race

package bytepool

import "sync"

// raceLock makes a P's budget credit visible to the race detector as
// guarded: pinning to the P gives exclusive, ordered access, but the
// detector cannot see that, so under -race every access also takes this
// (uncontended) mutex. Without -race it is empty.
type raceLock struct{ mu sync.Mutex }

func (l *raceLock) lock()   { l.mu.Lock() }
func (l *raceLock) unlock() { l.mu.Unlock() }

// reserveInKeep says whether a class reserves budget in the engine's Keep
// hook (after the race detector's random drop) rather than in Put.
const reserveInKeep = true
