// Package bug reproduces the shape of pokt-network/smt#53
// (https://github.com/pokt-network/smt/pull/53): the tree hasher gained a
// sync.Pool of scratch []byte buffers for building the bytes it hashes,
// and putBuffer handed the bare slice to Put. Converting a slice to the
// interface Put takes allocates its header every time, which is what the
// pool was meant to save; review flagged it (staticcheck SA6002) and the
// author answered with a follow-up commit (923465c) before the merge. The
// size guard is the PR's own; its cap value here is ours.
//
// Check: nonpointer (a []byte value is put into a sync.Pool)
package bug

import (
	"crypto/sha256"
	"hash"
	"sync"
)

const maxSizeForBufferPool = 64 * 1024

var bufferPool = sync.Pool{
	New: func() any {
		return make([]byte, 0, 256)
	},
}

// getBuffer returns a reusable byte slice from the pool
func getBuffer() []byte {
	return bufferPool.Get().([]byte)[:0]
}

// putBuffer returns a byte slice to the pool for reuse
func putBuffer(buf []byte) {
	// Don't pool very large buffers
	if cap(buf) < maxSizeForBufferPool {
		bufferPool.Put(buf) // want `nonpointer`
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
	buf := getBuffer()
	buf = append(buf, leafPrefix...)
	buf = append(buf, path...)
	buf = append(buf, data...)
	d := th.digest(buf)
	putBuffer(buf)
	return d
}

// digestNode hashes innerPrefix || left || right.
func (th *trieHasher) digestNode(left, right []byte) []byte {
	buf := getBuffer()
	buf = append(buf, innerPrefix...)
	buf = append(buf, left...)
	buf = append(buf, right...)
	d := th.digest(buf)
	putBuffer(buf)
	return d
}
