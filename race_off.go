//go:build !race

package pool

import "github.com/poolkit/pool/internal/runtimex"

// raceEnabled reports whether the race detector is on.
const raceEnabled = false

func raceDrop() bool { return false }

// Section helpers (see slots.go). Without the race detector a nosplit
// function is a section by itself, the race locks are empty, and the slot
// table's words are read plainly: they are written once, atomically, by
// register, and a word-sized read observes either the old or the new value
// (the Go memory model rules out torn word-sized reads); either is correct
// for slots.of. They are functions of this package so that instantiations
// of Pool in other packages inline them.

//go:nosplit
func sectionEnter() {}

//go:nosplit
func sectionExit() {}

//go:nosplit
func raceLock(*runtimex.RaceLock) {}

//go:nosplit
func raceUnlock(*runtimex.RaceLock) {}

//go:nosplit
func loadUintptr(p *uintptr) uintptr { return *p }

//go:nosplit
func loadInt32(p *int32) int32 { return *p }
