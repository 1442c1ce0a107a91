// Package bug reproduces the shape of PaddlePaddle/PaddleFlow#665
// (https://github.com/PaddlePaddle/PaddleFlow/pull/665, commit d674f8ef): the
// pfs-fuse read cache keeps object-storage pages in a BufferPool wrapping a
// sync.Pool. The pool's New handed out a *[]byte, RequestMBuf asserted the value
// as a plain []byte, and the two places that give a page's buffer back (the
// cache-writer goroutine once the file is closed, and Page.Free) put &page.buffer,
// a *[]byte, so what went into the pool never matched what the reader takes out.
// Page.Free also cleared p.buffer right after putting a pointer to that very
// field, so the pooled *[]byte is emptied behind the pool's back.
// Fixed twin: one element type everywhere (*[]byte from New, Get and both Puts),
// and the slice header is copied out of the page before it is put. (The project
// instead switched New, Get and Put to plain []byte values; this twin keeps
// pointers so that it stays clean of the nonpointer check.)
// Check: typemismatch and useafterput in the bug twin (at both Puts of
// &page.buffer, and at the write to p.buffer after it was put); none here.
package bug

import (
	"io"
	"sync"
)

var cacheChan = make(chan *Page, 2000)

type rCache struct {
	mu    sync.Mutex
	pages map[int][]byte
}

func (r *rCache) setCache(index int, data []byte, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pages == nil {
		r.pages = make(map[int][]byte)
	}
	r.pages[index] = append([]byte(nil), data[:n]...)
}

func init() {
	go func() {
		for page := range cacheChan {
			page_ := page
			go func() {
				page_.r.setCache(page_.index, page_.buffer, len(page_.buffer))
				if *page_.closed {
					b := page_.buffer[:0]
					page_.bufferPool.pool.Put(&b)
				}
				*page_.writeCacheReady = true
				page_ = nil
			}()
		}
	}()
}

type Page struct {
	bufferPool      *BufferPool
	writeLength     int
	lock            sync.RWMutex
	buffer          []byte
	ready           bool
	index           int
	r               *rCache
	closed          *bool
	writeCacheReady *bool
}

type BufferPool struct {
	mu   sync.Mutex
	cond *sync.Cond

	bufSize            uint64
	totalBuffers       uint64
	computedMaxBuffers uint64

	pool *sync.Pool
}

// maxBuffers stands in for the memory probe the project uses.
func maxBuffers(bufSize uint64) uint64 {
	const budget = 512 << 20
	if bufSize == 0 {
		return 0
	}
	return budget / bufSize
}

func (pool *BufferPool) Init(size int) *BufferPool {
	pool.cond = sync.NewCond(&pool.mu)

	pool.pool = &sync.Pool{New: func() interface{} {
		out := make([]byte, 0, size)
		return &out
	}}

	return pool
}

func (pool *BufferPool) recomputeBufferLimit() {
	pool.computedMaxBuffers = maxBuffers(pool.bufSize)
}

func (pool *BufferPool) RequestMBuf(size uint64, block bool, blockSize int) (buf []byte) {
	pool.bufSize = size
	pool.mu.Lock()
	defer pool.mu.Unlock()

	if pool.totalBuffers%10 == 0 {
		pool.recomputeBufferLimit()
	}

	for pool.computedMaxBuffers < 1 {
		if block {
			pool.recomputeBufferLimit()
			pool.cond.Wait()
		} else {
			return
		}
	}

	pool.totalBuffers++
	bp := pool.pool.Get().(*[]byte)
	buf = (*bp)[:0]
	return
}

func (p *Page) setCache() {
	page := &Page{
		index:           p.index,
		buffer:          p.buffer,
		r:               p.r,
		bufferPool:      p.bufferPool,
		closed:          p.closed,
		writeCacheReady: p.writeCacheReady,
	}
	go func() {
		cacheChan <- page
	}()
}

func (p *Page) WriteFrom(reader io.Reader) (n int, err error) {
	if p.writeLength >= cap(p.buffer) {
		return 0, err
	}
	n, err = reader.Read(p.buffer[p.writeLength:cap(p.buffer)])
	p.lock.Lock()
	p.writeLength += n
	p.lock.Unlock()
	p.buffer = p.buffer[:p.writeLength]
	return n, err
}

func (p *Page) Free() {
	p.bufferPool.mu.Lock()
	defer p.bufferPool.mu.Unlock()
	if p.buffer != nil {
		b := p.buffer[:0]
		p.buffer = nil
		if *p.writeCacheReady {
			p.bufferPool.pool.Put(&b)
		}
		p.bufferPool.cond.Signal()
	}
	*p.closed = true
}

func (p *Page) Init(pool *BufferPool, size uint64, block bool, blockSize int) *Page {
	p.bufferPool = pool
	if size != 0 {
		p.buffer = p.bufferPool.RequestMBuf(size, block, blockSize)
		if p.buffer == nil {
			return nil
		}
		cacheWrite := false
		closed := false
		p.closed = &closed
		p.writeCacheReady = &cacheWrite
	}
	return p
}
