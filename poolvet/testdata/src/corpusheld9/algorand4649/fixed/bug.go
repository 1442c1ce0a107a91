// Package fixed is algorand/go-algorand#4649 after the fix: the pool stores
// *[]byte, so putting a buffer back stores a pointer and does not allocate.
package fixed

import "sync"

var encodingPool = sync.Pool{
	New: func() any {
		b := []byte{}
		return &b
	},
}

// GetEncodingBuf hands out a pointer to an empty slice that may have spare
// capacity; the caller owns it until it gives it back with PutEncodingBuf.
func GetEncodingBuf() *[]byte {
	p := encodingPool.Get().(*[]byte)
	*p = (*p)[:0]
	return p
}

// PutEncodingBuf gives a buffer back to the pool; the caller must not use it
// afterwards.
func PutEncodingBuf(p *[]byte) {
	encodingPool.Put(p)
}
