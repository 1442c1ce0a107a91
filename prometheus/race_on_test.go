//go:build race

package prometheus_test

// raceEnabled reports whether the race detector is on. Under it, pool.Pool's
// Put drops one object in four on purpose, so Drops and Idle vary per run.
const raceEnabled = true
