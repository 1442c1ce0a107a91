// Package ifacepool has pools a package reaches through an
// interface of its own, which a package-level sync.Pool fills.
package ifacepool

import "sync"

// FramePool is what a user may give the encoder to reuse frame buffers:
// the encoder only puts *frameBuf values into it.
type FramePool interface {
	Get() any
	Put(any)
}

type frameBuf struct{ b []byte }

type encoder struct {
	pool FramePool
	buf  *frameBuf
}

func (e *encoder) begin() {
	if f, ok := e.pool.Get().(*frameBuf); ok { // want `e.pool.Get\(\) is asserted to \*frameBuf, but framePool, the sync.Pool the package keeps in that FramePool, has a New that returns \[\]byte`
		e.buf = f
		return
	}
	e.buf = &frameBuf{b: make([]byte, 0, 4096)}
}

func (e *encoder) end() {
	e.buf.b = e.buf.b[:0]
	e.pool.Put(e.buf)
	e.buf = nil
}

// New makes a []byte, which the encoder's assertion never accepts: every
// fallback to New is thrown away (gorilla/websocket#953).
var framePool = sync.Pool{New: func() any { return make([]byte, 4096) }}

var defaultEncoder = encoder{pool: &framePool}

func encode(p []byte) int {
	defaultEncoder.begin()
	defaultEncoder.buf.b = append(defaultEncoder.buf.b, p...)
	n := len(defaultEncoder.buf.b)
	defaultEncoder.end()
	return n
}

// A pool whose New makes what the assertion expects.
type ChunkPool interface {
	Get() any
	Put(any)
}

type chunk struct{ b [512]byte }

var chunkPool = &sync.Pool{New: func() any { return new(chunk) }}

var chunks ChunkPool = chunkPool

func firstByte() byte {
	c := chunks.Get().(*chunk)
	b := c.b[0]
	chunks.Put(c)
	return b
}

// An interface the package also fills with a pool of its own: which
// implementation a Get reaches is not known, and nothing is reported.
type SlabPool interface {
	Get() any
	Put(any)
}

type slab struct{ b []byte }

type slabFreeList struct{ free []*slab }

func (l *slabFreeList) Get() any {
	if n := len(l.free); n > 0 {
		s := l.free[n-1]
		l.free = l.free[:n-1]
		return s
	}
	return &slab{}
}

func (l *slabFreeList) Put(x any) { l.free = append(l.free, x.(*slab)) }

var slabSyncPool = sync.Pool{New: func() any { return make([]byte, 64) }}

func slabPools(fast bool) SlabPool {
	if fast {
		return &slabFreeList{}
	}
	return &slabSyncPool
}

func slabLen(p SlabPool) int {
	s, ok := p.Get().(*slab)
	if !ok {
		return 0
	}
	n := len(s.b)
	p.Put(s)
	return n
}
