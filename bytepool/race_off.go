//go:build !race

package bytepool

// raceLock is empty without the race detector: a credit is written only by
// the goroutine pinned to its P (budget.idle, which only tests use, reads
// it unsynchronized: a word-sized read sees some earlier write).
type raceLock struct{}

func (*raceLock) lock()   {}
func (*raceLock) unlock() {}

// reserveInKeep says whether a class reserves budget in the engine's Keep
// hook (after the race detector's random drop) rather than in Put.
const reserveInKeep = false
