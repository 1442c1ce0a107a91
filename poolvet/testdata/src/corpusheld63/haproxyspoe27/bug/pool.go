// Source: https://github.com/criteo/haproxy-spoe-go/pull/27
// (commits a5c4f253bab008a2d949d617a49658575b97e7ba, which put the
// libp2p/go-buffer-pool frame buffers back, and
// 003022c63572cec6b9f68f6d3dd2bcc8121c82dc "Fix: remove unsafe cast from bytes
// to string": "This unsafe cast was causing memory corruptions leading to
// crashes.")
//
// Bug: every SPOE frame is read into a buffer from the go-buffer-pool
// (decodeFrame stores it in frame.originalData) and encodeFrame puts that
// buffer back with a deferred pool.Put once the reply is written.
// decodeString turned the decoded bytes into a string with an unsafe cast, so
// every decoded string aliased the pooled frame buffer. handleHello keeps the
// engine-id string in the long-lived conn (c.engineID), and run uses it as
// part of the key of the agent-wide engines map; the hello reply is then
// encoded into the same buffer and encodeFrame returns it to the pool, after
// which the next frame read by any connection overwrites the engine id / map
// key.
// Fix: decodeString copies (string(b)) instead of the unsafe cast.
//
// Check: useafterput (at the cod.encodeFrame(myframe) call in conn.run: the
// hello frame's pooled buffer, still aliased by c.engineID and the engines map
// key, is put back to the pool there)
package bug

import (
	"math/bits"
	"sync"
)

// Trimmed re-creation of github.com/libp2p/go-buffer-pool.

// GlobalPool is a static Pool for reusing byteslices of various sizes.
var GlobalPool = new(BufferPool)

// BufferPool is a pool to handle cases of reusing elements of varying sizes.
type BufferPool struct {
	pools [32]sync.Pool
}

// Get retrieves a buffer of the appropriate length from the buffer pool or
// allocates a new one.
func (p *BufferPool) Get(length int) []byte {
	if length == 0 {
		return nil
	}
	idx := nextLogBase2(uint32(length))
	if ptr := p.pools[idx].Get(); ptr != nil {
		bp := ptr.(*[]byte)
		buf := (*bp)[:uint32(length)]
		*bp = nil
		return buf
	}
	return make([]byte, 1<<idx)[:uint32(length)]
}

// Put returns a buffer to the buffer pool.
func (p *BufferPool) Put(buf []byte) {
	capacity := cap(buf)
	if capacity == 0 || capacity > 1<<31 {
		return
	}
	idx := prevLogBase2(uint32(capacity))
	buf = buf[:0]
	bp := &buf
	p.pools[idx].Put(bp)
}

// Get retrieves a buffer of the appropriate length from the global buffer pool.
func Get(length int) []byte {
	return GlobalPool.Get(length)
}

// Put returns a buffer to the global buffer pool.
func Put(slice []byte) {
	GlobalPool.Put(slice)
}

func nextLogBase2(v uint32) uint32 {
	return uint32(bits.Len32(v - 1))
}

func prevLogBase2(num uint32) uint32 {
	next := nextLogBase2(num)
	if num == (1 << uint32(next)) {
		return next
	}
	return next - 1
}
