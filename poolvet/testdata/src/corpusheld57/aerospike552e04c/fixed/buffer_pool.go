// Source: https://github.com/aerospike/aerospike-client-go/commit/552e04cf6d3c4c5d853d42294d91d114b0744daf
// ("copy buffer contents instead of referencing them directly").
//
// Fixed twin: unpackBlob copies blob bytes out of the pooled dataBuffer
// (and panics on an unknown type header), so the record returned to the
// caller no longer aliases the buffer that execute puts back in bufPool.
package fixed

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
