//go:build race || !(amd64 || arm64 || loong64 || mips64 || mips64le || ppc64 || ppc64le || riscv64 || s390x || wasm)

package pool

import "sync/atomic"

// counter is a statistics counter. On 32-bit platforms a uint64 cannot be
// read in one access, and under the race detector the unsynchronized reads of
// counter_plain.go would be reported, so here it is atomic.
type counter struct{ v atomic.Uint64 }

func (c *counter) inc() { c.v.Add(1) }

func (c *counter) load() uint64 { return c.v.Load() }
