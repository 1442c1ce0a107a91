//go:build race || !(amd64 || arm64 || loong64 || mips64 || mips64le || ppc64 || ppc64le || riscv64 || s390x || wasm)

package pool

import (
	"sync/atomic"
	"unsafe"
)

// counter is a statistics counter. On 32-bit platforms a uint64 cannot be
// read in one access, and under the race detector the unsynchronized reads of
// counter_plain.go would be reported, so here it is atomic. inc runs in
// sections, so it uses the sync/atomic function (an intrinsic or assembly
// without a prologue) on the aligned word of an atomic.Uint64, not the
// method, which is an ordinary call where it is not inlined.
type counter struct{ v atomic.Uint64 }

//go:nosplit
func (c *counter) inc() { atomic.AddUint64((*uint64)(unsafe.Pointer(&c.v)), 1) }

func (c *counter) load() uint64 { return c.v.Load() }
