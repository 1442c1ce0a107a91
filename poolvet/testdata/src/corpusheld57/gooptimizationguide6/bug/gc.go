// Source: https://github.com/astavonin/go-optimization-guide/issues/6
// (example in docs/01-common-patterns/gc.md, "Minimize Allocation Rate";
// removed in commit a360a24553d0a69b21022438be0f95f1c205aa4e,
// "removing confusing advice from GC part").
//
// Bug: the guide's "BETTER: reuse buffers" example keeps raw []byte values
// in a sync.Pool. New returns a []byte and copyData puts the slice back with
// a deferred bufPool.Put(buf); boxing the slice header into interface{}
// allocates on every Put, so the pool increases the allocation rate it was
// meant to reduce (issue #6: "Allocates to box buf").
// Fix: the maintainer removed the pooled example; copyData allocates a fresh
// slice (the "BAD" version that remained as the plain approach).
//
// Check: nonpointer (at the deferred bufPool.Put(buf): a []byte, not a
// pointer, is stored in the sync.Pool)
package bug

import "sync"

// BETTER: reuse buffers when possible
var bufPool = sync.Pool{
	New: func() any { return make([]byte, 0, 1024) },
}

func copyData(data []byte) []byte {
	buf := bufPool.Get().([]byte)
	buf = buf[:0] // reset buffer
	buf = append(buf, data...)
	defer bufPool.Put(buf) // want `nonpointer`
	return buf
}

// Process copies every record before handing it on.
func Process(records [][]byte, sink func([]byte)) {
	for _, r := range records {
		sink(copyData(r))
	}
}
