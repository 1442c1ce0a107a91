//go:build !race

package pool

// raceEnabled reports whether the race detector is on.
const raceEnabled = false

func raceDrop() bool { return false }
