package doubleput

import "sync"

// A getter that returns a cached field instead of a pooled map when
// nothing changed: its callers put the cached map (grafana/loki#11607).
var mapPool = sync.Pool{New: func() any { return map[string]string{} }}

type builder struct {
	base    map[string]string
	added   [][2]string
	baseMap map[string]string
}

func (b *builder) asMap() map[string]string {
	if len(b.added) == 0 {
		if b.baseMap == nil {
			b.baseMap = b.base
		}
		return b.baseMap
	}
	m := mapPool.Get().(map[string]string)
	for k, v := range b.base {
		m[k] = v
	}
	for _, kv := range b.added {
		m[kv[0]] = kv[1]
	}
	return m
}

func (b *builder) pooledMap() map[string]string {
	m := mapPool.Get().(map[string]string)
	for k, v := range b.base {
		m[k] = v
	}
	return m
}

func render(b *builder) int {
	m := b.asMap()
	defer mapPool.Put(m) // want `m may be the receiver's baseMap, which asMap returns as it is rather than a fresh object from the pool`
	return len(m)
}

func renderPooled(b *builder) int {
	m := b.pooledMap()
	defer mapPool.Put(m)
	return len(m)
}

// A child operator that fills a field from the pool once and returns it on
// every call; the parent puts what it returns (matrixorigin/matrixone#18078).
type opBatch struct{ rows []int64 }

var opPool = sync.Pool{New: func() any { return new(opBatch) }}

func newOpBatch() *opBatch {
	b := opPool.Get().(*opBatch)
	b.rows = b.rows[:0]
	return b
}

type projection struct {
	src [][]int64
	buf *opBatch
}

func (p *projection) next() *opBatch {
	if len(p.src) == 0 {
		return nil
	}
	if p.buf == nil {
		p.buf = newOpBatch()
	}
	p.buf.rows = append(p.buf.rows[:0], p.src[0]...)
	p.src = p.src[1:]
	return p.buf
}

func drainProjection(p *projection) (n int) {
	for {
		b := p.next()
		if b == nil {
			return n
		}
		n += len(b.rows)
		opPool.Put(b) // want `b may be the receiver's buf, which next returns as it is rather than a fresh object from the pool`
	}
}

// Silent: a child that hands out a fresh batch each call.
type projection2 struct{ src [][]int64 }

func (p *projection2) next() *opBatch {
	if len(p.src) == 0 {
		return nil
	}
	b := newOpBatch()
	b.rows = append(b.rows, p.src[0]...)
	p.src = p.src[1:]
	return b
}

func drainProjection2(p *projection2) (n int) {
	for {
		b := p.next()
		if b == nil {
			return n
		}
		n += len(b.rows)
		opPool.Put(b)
	}
}

// The same getter result freed by a deferred closure that captured the
// variable (matrixorigin/matrixone#15711).
func (p *projection) evalTwo() (n int, err error) {
	var first *opBatch
	defer func() {
		if first != nil {
			opPool.Put(first) // want `first may be the receiver's buf, which next returns as it is rather than a fresh object from the pool`
		}
	}()
	first = p.next()
	if first == nil {
		return 0, nil
	}
	return len(first.rows), nil
}

// Silent: a getter that says whether its result came from the pool, and a
// caller that puts only then (grafana/loki#11607's fix).
func (p *projection) nextPooled() (*opBatch, bool) {
	if len(p.src) == 0 {
		if p.buf == nil {
			p.buf = newOpBatch()
		}
		return p.buf, false
	}
	return newOpBatch(), true
}

func useNext(p *projection) int {
	b, pooled := p.nextPooled()
	defer func() {
		if pooled {
			opPool.Put(b)
		}
	}()
	return len(b.rows)
}

// Silent: a getter that moves the field's object out and clears the field
// (x/net's GzipReader.acquire), with a release that puts it back.
type lazyReader struct {
	mu sync.Mutex
	zr *opBatch
}

func (g *lazyReader) acquire() *opBatch {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.zr == nil {
		g.zr = newOpBatch()
	}
	ret := g.zr
	g.zr = nil
	return ret
}

func (g *lazyReader) read() int {
	b := g.acquire()
	defer opPool.Put(b)
	return len(b.rows)
}
