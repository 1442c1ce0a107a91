// Package fixed is the repaired twin of google/badwolf#170 (https://github.com/google/badwolf/pull/170): the pool stores *[]byte, so Put does not allocate.
package fixed

import (
	"crypto/sha1"
	"sync"
)

var bufPool = sync.Pool{New: func() any {
	b := make([]byte, 48)
	return &b
}}

// Triple is a subject, predicate and object, each identified by a 16-byte UUID.
type Triple struct {
	S, P, O [16]byte
}

// UUID returns the SHA-1 of the three concatenated UUIDs.
func (t *Triple) UUID() [sha1.Size]byte {
	bp := bufPool.Get().(*[]byte)
	b := *bp
	copy(b[0:16], t.S[:])
	copy(b[16:32], t.P[:])
	copy(b[32:48], t.O[:])
	id := sha1.Sum(b)
	bufPool.Put(bp)
	return id
}
