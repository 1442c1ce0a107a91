// Package bytepool pools byte slices by size class, within a byte budget, and
// provides Buffer, a growable byte buffer whose storage comes from the pool.
//
// # Slices
//
// Get(n) returns a slice of length n whose capacity is n rounded up to its
// size class; Put(b) returns it. There are four classes per doubling from
// 16 bytes to MaxSize (1 MiB by default), so a slice is less than 25% larger
// than requested and over log-uniform sizes the mean cap/len is about 1.09
// (powers of two give 1.44). The class table, with the range of each class,
// is written out in the comment of package internal/sizeclass.
//
//	b := bytepool.Get(n) // len n; contents are not zeroed
//	... use b ...
//	bytepool.Put(b)      // b, and every slice of it, must not be used again
//
// Put files a slice by its capacity, under the largest class not above it.
// Slices larger than MaxSize are never kept (golang/go#23199: one huge
// buffer must not stay pinned by a pool), and the idle bytes held over all
// classes never exceed the pool's MaxBytes (64 MiB by default). The budget
// is kept without a shared atomic on the fast path: each P (GOMAXPROCS)
// that uses the pool holds a share of the unused budget, so a Put may be
// dropped while the idle bytes are up to MaxBytes/4 below the bound. Like
// sync.Pool, the pool releases what stays idle across two GC cycles; slices
// idle in a P's cache are collected by the third (see pool.Pool, "GC").
//
// Near the memory limit (debug.SetMemoryLimit, GOMEMLIMIT) the budget
// shrinks to MaxBytes/8 until the pressure ends; see Pool.MaxBytes.
//
// # Debugging
//
// With POOLDEBUG=doubleput=1 (or pool.SetDebug), a Put of a slice that is
// already idle in the pool is reported ("double Put of []byte"). With
// POOLDEBUG=poison=1, Put fills the class-size capacity of each slice it
// keeps, and Free the storage of each Buffer it keeps, with the byte 0xa5,
// and the Get or GetBuffer that hands the memory out again checks it: a
// write after Put or Free is reported with the capacity and the first
// modified offset ("bytepool.Get: []byte (cap 1024) modified after Put:
// ..."). The default reporter panics; with pool.SetReporter the corrupted
// memory is dropped and a fresh slice handed out instead. With any POOLDEBUG
// setting, Put also refuses a slice whose address proves that it does not
// start where its allocation starts, such as the tail b[len(b)-100:] of a
// large buffer: kept, it would pin the whole buffer while the budget counts
// its small capacity ("Put of a sub-slice", counted in Stats.Drops.Subslice;
// see Pool.Put for what is and is not detected). With debug off, Get and Put
// read one flag more than they would without debug support.
//
// # Buffers
//
// A Buffer is the write side of bytes.Buffer (Write, WriteString, WriteByte,
// WriteRune, ReadFrom, WriteTo, Bytes, String, Len, Cap, Reset, Grow,
// Truncate) with storage taken from a Pool and given back when it grows and
// on Free. The pool learns how large its Buffers get: it keeps a decaying
// histogram of the largest length each Buffer reached and starts new Buffers
// at the histogram's 95th percentile, so that a typical Buffer grows at most
// once. A freed Buffer whose storage is of that size keeps it while idle
// (within the budget), so GetBuffer and Free cost one pool operation each.
//
//	buf := bytepool.GetBuffer()
//	buf.WriteString("level=info msg=")
//	buf.WriteString(msg)
//	w.Write(buf.Bytes())
//	buf.Free() // buf and buf.Bytes() must not be used again
//
// # When not to use it
//
// For slices whose size is known at compile time and that do not escape, a
// local array is cheaper. For slices kept for a long time, a pool adds
// nothing. For fixed-size objects other than byte slices, use pool.Pool.
//
// # Statistics
//
// Pool.Stats reports gets, misses (allocations), puts, drops by reason
// (budget, too large, too small, race-detector drops), GC evictions and idle
// bytes, in total and per class.
package bytepool
