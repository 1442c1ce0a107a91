// Package fixed is the fixed twin of smt53: the pool holds *[]byte, so
// putting a buffer back stores a pointer and allocates nothing; the size
// guard stays (the obvious fix for the SA6002 report in the review of
// pokt-network/smt#53).
package fixed

import (
	"crypto/sha256"
	"hash"
	"sync"
)

const maxSizeForBufferPool = 64 * 1024

var bufferPool = sync.Pool{
	New: func() any {
		b := make([]byte, 0, 256)
		return &b
	},
}

// getBuffer returns a reusable byte slice from the pool, emptied.
func getBuffer() *[]byte {
	bp := bufferPool.Get().(*[]byte)
	*bp = (*bp)[:0]
	return bp
}

// putBuffer returns a byte slice to the pool for reuse
func putBuffer(bp *[]byte) {
	// Don't pool very large buffers
	if cap(*bp) < maxSizeForBufferPool {
		bufferPool.Put(bp)
	}
}

var (
	leafPrefix  = []byte{0}
	innerPrefix = []byte{1}
)

type trieHasher struct {
	hasher hash.Hash
}

func newTrieHasher() *trieHasher {
	return &trieHasher{hasher: sha256.New()}
}

func (th *trieHasher) digest(data []byte) []byte {
	th.hasher.Write(data)
	sum := th.hasher.Sum(nil)
	th.hasher.Reset()
	return sum
}

// digestLeaf hashes leafPrefix || path || data.
func (th *trieHasher) digestLeaf(path, data []byte) []byte {
	bp := getBuffer()
	buf := append(*bp, leafPrefix...)
	buf = append(buf, path...)
	buf = append(buf, data...)
	d := th.digest(buf)
	*bp = buf
	putBuffer(bp)
	return d
}

// digestNode hashes innerPrefix || left || right.
func (th *trieHasher) digestNode(left, right []byte) []byte {
	bp := getBuffer()
	buf := append(*bp, innerPrefix...)
	buf = append(buf, left...)
	buf = append(buf, right...)
	d := th.digest(buf)
	*bp = buf
	putBuffer(bp)
	return d
}
