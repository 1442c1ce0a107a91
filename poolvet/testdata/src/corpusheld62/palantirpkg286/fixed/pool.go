// Source: https://github.com/palantir/pkg/pull/286
// (commit c890eff9046d628d0299274bb5ad4197ade32729, "bytesbuffers: Do not
// reuse buffers that have grown beyond specified capacity"),
// bytesbuffers/pool.go.
//
// Fixed twin: both pools remember the allocation size they were created with
// and drop a buffer whose Cap() grew beyond it instead of putting it back.
package fixed

import (
	"bytes"
	"sync"
)

// Pool is a type-safe interface for a pool of bytes buffers.
type Pool interface {
	// Get reset bytes buffer from the pool.
	Get() *bytes.Buffer
	// Put adds buf to the pool.
	Put(buf *bytes.Buffer)
}

// NewSyncPool uses the standard library's sync.Pool to store
// reusable bytes buffers until the next GC.
//
// This self-sizes based on the highest concurrent usage per GC period.
//
// Use this for spiky workloads.
func NewSyncPool(defaultBufferCapacity int64) Pool {
	return &syncPool{allocSize: int(defaultBufferCapacity), Pool: &sync.Pool{
		New: func() interface{} {
			return bytes.NewBuffer(make([]byte, 0, defaultBufferCapacity))
		},
	}}
}

type syncPool struct {
	allocSize int
	Pool      *sync.Pool
}

func (p *syncPool) Get() *bytes.Buffer {
	return p.Pool.Get().(*bytes.Buffer)
}

func (p *syncPool) Put(buf *bytes.Buffer) {
	buf.Reset()
	// Only keep buffer if it has not grown. See https://golang.org/issue/23199
	if buf.Cap() > p.allocSize {
		return
	}
	p.Pool.Put(buf)
}

// NewSizedPool stores (up to) a fixed size of released bytes buffers in the pool.
//
// Stored bytes buffers are not garbage collected until the reference to the pool is lost.
//
// Use this for steady high-volume workloads.
func NewSizedPool(poolCapacity, defaultBufferCapacity int) Pool {
	return &sizedPool{
		capacity:  poolCapacity,
		allocSize: defaultBufferCapacity,
		buffers:   make(chan *bytes.Buffer, poolCapacity),
	}
}

type sizedPool struct {
	allocSize int
	capacity  int
	buffers   chan *bytes.Buffer
}

func (p *sizedPool) Get() *bytes.Buffer {
	select {
	case b := <-p.buffers:
		// return existing buffer
		return b
	default:
		// no existing buffers, allocate a new one
		return bytes.NewBuffer(make([]byte, 0, p.allocSize))
	}
}

func (p *sizedPool) Put(buf *bytes.Buffer) {
	buf.Reset()
	// Only keep buffer if it has not grown. See https://golang.org/issue/23199
	if buf.Cap() > p.allocSize {
		return
	}
	select {
	case p.buffers <- buf:
		// return to pool
	default:
		// discard, pool is already full
	}
}
