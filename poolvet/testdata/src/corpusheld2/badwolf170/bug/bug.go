// Package bug reproduces the shape of google/badwolf#170 (https://github.com/google/badwolf/pull/170): Triple.UUID kept a sync.Pool of []byte scratch buffers, asserted Get to []byte and put the slice value back. Converting the slice header to interface{} allocates on every Put (staticcheck SA6002), defeating the pool; the PR switched the pool to *[]byte.
//
// Check: nonpointer ([]byte slice value put into sync.Pool).
package bug

import (
	"crypto/sha1"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return make([]byte, 48) }}

// Triple is a subject, predicate and object, each identified by a 16-byte UUID.
type Triple struct {
	S, P, O [16]byte
}

// UUID returns the SHA-1 of the three concatenated UUIDs.
func (t *Triple) UUID() [sha1.Size]byte {
	b := bufPool.Get().([]byte)
	copy(b[0:16], t.S[:])
	copy(b[16:32], t.P[:])
	copy(b[32:48], t.O[:])
	id := sha1.Sum(b)
	bufPool.Put(b) // want `non-pointer|nonpointer`
	return id
}
