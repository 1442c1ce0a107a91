// Package pool provides Pool, a typed object pool: what sync.Pool would be
// if it were generic, bounded, observable and kind to expensive objects.
//
// A Pool[T] caches idle objects of type T per P, as sync.Pool does, without
// a lock or atomic read-modify-write on its fast path, but:
//
//   - Get returns a T: no type assertion, and non-pointer types such as
//     []byte or small structs are stored without boxing, so Get and Put do
//     not allocate;
//   - Put runs a Reset hook, so objects never come back dirty, and a Keep
//     hook, so oversized objects (golang/go#23199) are dropped;
//   - MaxIdle bounds what the pool holds, MinIdle keeps that many objects
//     across GC cycles (sync.Pool forgets everything in two);
//   - Stats reports gets, misses, puts, drops, evictions and idle objects at
//     any time, at no cost to Get and Put beyond one increment each;
//   - it starts no goroutine: GC trimming runs on the runtime's cleanup
//     goroutine, so go.uber.org/goleak stays quiet in your tests.
//
// The fast path relies on runtime internals (procPin, as sync.Pool uses
// them) only on Go toolchains it has been verified on (Go 1.26); on newer
// ones, and with the build tag poolkit_portable, it takes a per-shard lock
// instead. It builds and links in every mode: -race, -gcflags=all=-l,
// -gcflags='all=-N -l' (debuggers), and every GOARCH.
//
// Sibling packages build on it: bytepool (size-classed []byte with a byte
// budget, and a pooled Buffer), poolvet (a static analyzer for pool misuse),
// and cmd/poolbench in the benchmarks module measures when pooling pays.
package pool
