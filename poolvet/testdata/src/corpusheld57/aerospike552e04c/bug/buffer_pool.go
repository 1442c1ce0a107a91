// Source: https://github.com/aerospike/aerospike-client-go/commit/552e04cf6d3c4c5d853d42294d91d114b0744daf
// ("copy buffer contents instead of referencing them directly").
//
// Bug: every command draws its dataBuffer from the package-level bufPool
// (a BufferPool free list) and puts it back when execute finishes. While
// parsing a record, list/map bins are decoded by an unpacker that works
// directly on cmd.dataBuffer; unpackBlob returned the blob as a sub-slice
// of that buffer. The record (cmd.record) outlives execute, so once
// bufPool.Put(cmd.dataBuffer) runs, blobs inside returned lists and maps
// alias a pooled buffer that the next command overwrites.
// Fix: unpackBlob copies the bytes into a fresh slice (and rejects unknown
// type headers), so no part of the record references the pooled buffer.
//
// Check: useafterput (at bufPool.Put(cmd.dataBuffer) in execute: the
// buffer's memory was already handed to cmd.record, which outlives the
// call, through the unpacker's sub-slices)
package bug

import "sync"

// BufferPool implements a specialized buffer pool.
// Pool size will be limited, and each buffer size will be
// constrained to the init and max buffer sizes.
type BufferPool struct {
	pool     [][]byte
	poolSize int

	pos int64

	maxBufSize  int
	initBufSize int

	mutex sync.Mutex
}

// NewBufferPool creates a new buffer pool.
func NewBufferPool(poolSize, initBufferSize, maxBufferSize int) *BufferPool {
	return &BufferPool{
		pool:        make([][]byte, poolSize),
		pos:         -1,
		poolSize:    poolSize,
		maxBufSize:  maxBufferSize,
		initBufSize: initBufferSize,
	}
}

// Get returns a buffer from the pool. If pool is empty, a new buffer of
// size initBufSize will be created and returned.
func (bp *BufferPool) Get() (res []byte) {
	bp.mutex.Lock()
	if bp.pos >= 0 {
		res = bp.pool[bp.pos]
		bp.pos--
	} else {
		res = make([]byte, bp.initBufSize, bp.initBufSize)
	}

	bp.mutex.Unlock()
	return res
}

// Put will put the buffer back in the pool, unless cap(buf) is bigger than
// initBufSize, in which case it will be thrown away
func (bp *BufferPool) Put(buf []byte) {
	if len(buf) <= bp.maxBufSize {
		bp.mutex.Lock()
		if bp.pos < int64(bp.poolSize-1) {
			bp.pos++
			bp.pool[bp.pos] = buf
		}
		bp.mutex.Unlock()
	}
}
