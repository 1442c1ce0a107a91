//go:build race

package bytepool_test

// raceEnabled reports whether the race detector is on; under it the engine
// drops one Put in four at random, so reuse and allocation counts are not
// deterministic.
const raceEnabled = true
