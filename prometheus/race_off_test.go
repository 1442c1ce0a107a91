//go:build !race

package prometheus_test

// raceEnabled reports whether the race detector is on. Without it, Put drops
// nothing that Keep and MaxIdle accept, so Drops and Idle are exact.
const raceEnabled = false
