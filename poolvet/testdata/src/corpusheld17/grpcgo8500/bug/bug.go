// Package bug reproduces the shape of grpc/grpc-go#8500
// (https://github.com/grpc/grpc-go/issues/8500, "Memory hoarding (i.e.
// leak) in simpleBufferPool"): the fallback pool for sizes above the tiers
// hands out buffers of whatever size the caller asks for and takes every
// buffer back. With responses of ever-increasing size, Get finds only
// buffers that are too small, puts them back and allocates a larger one,
// which Put keeps too, so the pool holds every size it ever served.
//
// Check: unbounded (a variable-size pool of *[]byte whose Puts keep buffers
// of any size).
package bug

import (
	"io"
	"sync"
)

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

	// A buffer was pulled from the pool, but it is too small. Put it back in
	// the pool and create one large enough.
	if ok {
		p.pool.Put(bs) // want `unbounded`
	}

	b := make([]byte, size)
	return &b
}

func (p *simpleBufferPool) Put(buf *[]byte) {
	p.pool.Put(buf) // want `unbounded`
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
