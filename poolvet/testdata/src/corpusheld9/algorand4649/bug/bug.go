// Package bug reproduces the shape of algorand/go-algorand#4649
// (https://github.com/algorand/go-algorand/pull/4649): the protocol package
// kept its temporary encoding buffers in a sync.Pool as bare []byte values.
// PutEncodingBuf passed the slice straight to Pool.Put, so the conversion to
// an interface copied the slice header to the heap on every return. The PR
// switched the pool to *[]byte.
//
// Check: nonpointer (a []byte parameter of a Put helper handed to
// sync.Pool.Put).
package bug

import "sync"

var encodingPool = sync.Pool{
	New: func() any {
		return []byte{}
	},
}

// GetEncodingBuf hands out an empty slice that may have spare capacity; the
// caller owns it until it gives it back with PutEncodingBuf.
func GetEncodingBuf() []byte {
	return encodingPool.Get().([]byte)[:0]
}

// PutEncodingBuf gives a slice back to the pool; the caller must not use it
// afterwards.
func PutEncodingBuf(s []byte) {
	encodingPool.Put(s) // want `nonpointer`
}
