//go:build !race

package pool

import "github.com/poolkit/pool/internal/runtimex"

// raceEnabled reports whether the race detector is on.
const raceEnabled = false

func raceDrop() bool { return false }

// Without the race detector the race locks are empty; they are functions of
// this package so that instantiations of Pool in other packages inline
// them.
func raceLock(*runtimex.RaceLock) {}

func raceUnlock(*runtimex.RaceLock) {}
