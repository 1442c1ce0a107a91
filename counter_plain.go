//go:build !race && (amd64 || arm64 || loong64 || mips64 || mips64le || ppc64 || ppc64le || riscv64 || s390x || wasm)

package pool

// counter is a statistics counter written only by the goroutine that
// entered its shard, so inc needs no atomic read-modify-write. load may run
// concurrently on any goroutine: on 64-bit platforms a word-sized read
// observes some earlier write (the Go memory model forbids torn or
// out-of-thin-air values for word-sized accesses), which is all Stats
// promises while the pool is in use.
type counter struct{ v uint64 }

func (c *counter) inc()         { c.v++ }
func (c *counter) load() uint64 { return c.v }
