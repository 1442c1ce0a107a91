// Package advise reads a Go heap profile of a program and says at which of
// the program's source lines pooling would pay, with which pool, and where
// it would not. It is the library behind cmd/pooladvise.
//
// Analyze attributes each allocation sample to the innermost frame that
// lies in the user's packages (loaded with golang.org/x/tools/go/packages,
// tests included), names the type allocated or constructed there from the
// line's syntax and types, and gives the site one of four verdicts:
// VerdictPool, VerdictBytePool, VerdictDontPool, VerdictUnknown, with a
// reason and, for the first two, code to paste. Lazily built state is
// charged to the construction: the flate compressor that
// gzip.(*Writer).Write builds on first use belongs to the line that calls
// gzip.NewWriter.
//
// Sites are ranked by an estimated saving from the cost model in Costs:
// allocation cost by object size, GC cost per allocated byte (measured
// from the run's GC trace when RunBench made the profile), minus a pool
// round trip and a Reset per object constructed. The model, its figures
// and its limits are described in docs/advise.md.
package advise
