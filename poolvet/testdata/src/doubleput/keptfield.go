package doubleput

import (
	"sync"
	"sync/atomic"
)

// A function that puts what a field holds and leaves the field holding
// it, while a method of the holder puts what the field holds too
// (panjf2000/gnet 8e48b2d, DataDog/dd-trace-go#3430).
var inPool = sync.Pool{New: func() any { return new(inBuf) }}

type inBuf struct{ b []byte }

func putIn(b *inBuf) {
	if cap(b.b) > 1<<16 {
		return
	}
	b.b = b.b[:0]
	inPool.Put(b)
}

type kconn struct {
	cache   *inBuf
	inbound []byte
}

func (c *kconn) release() {
	if c.cache != nil {
		putIn(c.cache)
		c.cache = nil
	}
}

type kread struct {
	c  *kconn
	in *inBuf
}

// read fills the field before putting it: running it again is fine, a
// later release puts the object again.
func read(r *kread) {
	c := r.c
	c.cache = r.in
	c.inbound = append(c.inbound, c.cache.b...)
	putIn(c.cache)
}

func onError(c *kconn) {
	c.release() // want `release puts what cache holds, but read \(line 46\) put that object back into the pool and left it in the field`
}

// readFixed clears the field after the Put.
type kconn2 struct{ cache *inBuf }

func (c *kconn2) release() {
	if c.cache != nil {
		putIn(c.cache)
		c.cache = nil
	}
}

func read2(c *kconn2, in *inBuf) {
	c.cache = in
	putIn(c.cache)
	c.cache = nil
}

func onError2(c *kconn2) { c.release() }

// A getter-like method that puts the current point and leaves it: Submit
// swaps it out and puts it too.
var pointPool = sync.Pool{New: func() any { return new(point) }}

type point struct{ v float64 }

type gauge struct {
	cur atomic.Pointer[point]
}

func (g *gauge) Payload() float64 {
	p := g.cur.Load()
	if p == nil {
		return 0
	}
	defer pointPool.Put(p) // want `Payload puts p back into the pool and leaves the field holding it, and Submit \(line 97\) puts`
	return p.v
}

func (g *gauge) Submit(v float64) {
	np := pointPool.Get().(*point)
	np.v = v
	for {
		old := g.cur.Load()
		if g.cur.CompareAndSwap(old, np) {
			if old != nil {
				pointPool.Put(old)
			}
			return
		}
	}
}

// Silent: Take swaps the point out before putting it.
type gauge2 struct {
	cur atomic.Pointer[point]
}

func (g *gauge2) Take() float64 {
	p := g.cur.Swap(nil)
	if p == nil {
		return 0
	}
	defer pointPool.Put(p)
	return p.v
}

func (g *gauge2) Submit(v float64) {
	np := pointPool.Get().(*point)
	np.v = v
	if old := g.cur.Swap(np); old != nil {
		pointPool.Put(old)
	}
}

// Silent: a method whose name ends the holder's life (Close) may leave the
// field; so may one that records the holder is done (a counter).
type kconn3 struct {
	cache *inBuf
	next  int
}

func (c *kconn3) Close() { putIn(c.cache) } // want Close:`pool:put\(0\).field`

func (c *kconn3) flush() {
	putIn(c.cache)
	c.next++
}

func (c *kconn3) swap(in *inBuf) {
	if c.cache != nil {
		putIn(c.cache)
	}
	c.cache = in
}

// Silent: every caller clears the field after the call.
type kconn4 struct{ cache *inBuf }

func (c *kconn4) drop() { putIn(c.cache) }

func (c *kconn4) swap(in *inBuf) {
	if c.cache != nil {
		putIn(c.cache)
	}
	c.cache = in
}

func finish(c *kconn4) {
	c.drop()
	c.cache = nil
}

// Silent: two plain functions that each consume the holder; no method of
// the holder puts the field.
type msg struct{ buf *inBuf }

func consumeA(m *msg) { putIn(m.buf) }

func consumeB(m *msg) { putIn(m.buf) }

// A Commit that releases the batch it holds and leaves the field, called
// after a deferred Close that releases it too (onflow/flow-go#7488).
var batchPool = sync.Pool{New: func() any { return new(kbatch) }}

type kbatch struct {
	db   *int
	keys []string
}

// close does nothing once released (db == nil), until the next user of
// the batch sets db again.
func (b *kbatch) close() {
	if b.db == nil {
		return
	}
	b.db = nil
	b.keys = b.keys[:0]
	batchPool.Put(b)
}

type batchWriter struct{ b *kbatch }

func (w *batchWriter) commit() error {
	defer w.b.close()
	return nil
}

func (w *batchWriter) close() error {
	w.b.close()
	return nil
}

func withBatch(fn func(*batchWriter) error) error {
	w := &batchWriter{b: batchPool.Get().(*kbatch)}
	w.b.db = new(int)
	defer w.close()
	if err := fn(w); err != nil {
		return err
	}
	return w.commit() // want `commit puts what b holds back into the pool and leaves the field holding it, and close \(line 207\) puts what that field holds again`
}

// Silent: Commit leaves the release to the deferred Close.
type batchWriter2 struct{ b *kbatch }

func (w *batchWriter2) commit() error { return nil }

func (w *batchWriter2) close() error {
	w.b.close()
	return nil
}

func withBatch2(fn func(*batchWriter2) error) error {
	w := &batchWriter2{b: batchPool.Get().(*kbatch)}
	w.b.db = new(int)
	defer w.close()
	if err := fn(w); err != nil {
		return err
	}
	return w.commit()
}
