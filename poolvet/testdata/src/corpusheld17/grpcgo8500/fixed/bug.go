// Package fixed is the fixed twin of grpc/grpc-go#8500
// (https://github.com/grpc/grpc-go/issues/8500): Put drops buffers above a
// size limit (the obvious fix), and Get gives a too-small buffer back
// through Put, so every way back into the pool goes through that limit.
package fixed

import (
	"io"
	"sync"
)

// maxPooledSize is the largest buffer the pool keeps.
const maxPooledSize = 1 << 20

// BufferPool is a pool of buffers that can be shared and reused.
type BufferPool interface {
	Get(length int) *[]byte
	Put(*[]byte)
}

type simpleBufferPool struct {
	pool sync.Pool
}

func (p *simpleBufferPool) Get(size int) *[]byte {
	bs, ok := p.pool.Get().(*[]byte)
	if ok && cap(*bs) >= size {
		*bs = (*bs)[:size]
		return bs
	}

	// A buffer was pulled from the pool, but it is too small. Give it back
	// and create one large enough.
	if ok {
		p.Put(bs)
	}

	b := make([]byte, size)
	return &b
}

func (p *simpleBufferPool) Put(buf *[]byte) {
	if cap(*buf) > maxPooledSize {
		return
	}
	p.pool.Put(buf)
}

var _ BufferPool = (*simpleBufferPool)(nil)

// ReadMessage reads one length-prefixed message body of size n through the
// pool and returns a copy of it.
func ReadMessage(pool BufferPool, r io.Reader, n int) ([]byte, error) {
	buf := pool.Get(n)
	_, err := io.ReadFull(r, *buf)
	msg := append([]byte(nil), (*buf)...)
	pool.Put(buf)
	return msg, err
}
