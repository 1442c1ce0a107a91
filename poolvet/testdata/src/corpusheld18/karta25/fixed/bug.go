// Package fixed is shengyanli1982/karta#25 after commit fed24d7: workers
// no longer clean up on cancellation; Map runs a single cleanup, under the
// lock, after every worker has returned, and Stop no longer cleans up.
package fixed

import (
	"context"
	"sync"
	"sync/atomic"
)

type Element struct {
	data  any
	value int64
}

func (e *Element) Reset() {
	e.data = nil
	e.value = 0
}

type ElementPool struct {
	syncPool *sync.Pool
}

func NewElementPool() *ElementPool {
	return &ElementPool{syncPool: &sync.Pool{New: func() any { return &Element{} }}}
}

func (p *ElementPool) Get() *Element { return p.syncPool.Get().(*Element) }

func (p *ElementPool) Put(e *Element) {
	if e != nil {
		e.Reset()
		p.syncPool.Put(e)
	}
}

var elementPool = NewElementPool()

type Group struct {
	elements []*Element
	lock     sync.Mutex
	workers  int
	handle   func(any) (any, error)
	wg       sync.WaitGroup
	once     sync.Once
	ctx      context.Context
	cancel   context.CancelFunc
}

func NewGroup(workers int, handle func(any) (any, error)) *Group {
	g := &Group{workers: workers, handle: handle}
	g.ctx, g.cancel = context.WithCancel(context.Background())
	return g
}

func (g *Group) cleanup() {
	g.lock.Lock()
	defer g.lock.Unlock()
	for i := 0; i < len(g.elements); i++ {
		if g.elements[i] != nil {
			elementPool.Put(g.elements[i])
			g.elements[i] = nil
		}
	}
}

func (g *Group) Stop() {
	g.once.Do(func() {
		g.cancel()
		g.wg.Wait()
	})
}

func (g *Group) prepare(items []any) {
	g.lock.Lock()
	g.elements = make([]*Element, len(items))
	for i := range items {
		e := elementPool.Get()
		e.data = items[i]
		e.value = int64(i)
		g.elements[i] = e
	}
	g.lock.Unlock()
}

func (g *Group) execute() []any {
	total := len(g.elements)
	results := make([]any, total)
	var next int64
	g.wg.Add(g.workers)
	for w := 0; w < g.workers; w++ {
		go func() {
			defer g.wg.Done()
			for {
				idx := atomic.AddInt64(&next, 1) - 1
				if idx >= int64(total) {
					return
				}
				select {
				case <-g.ctx.Done():
					return
				default:
					current := g.elements[idx]
					if current == nil {
						continue
					}
					g.elements[idx] = nil
					out, _ := g.handle(current.data)
					results[current.value] = out
					elementPool.Put(current)
				}
			}
		}()
	}
	g.wg.Wait()
	return results
}

func (g *Group) Map(items []any) []any {
	if len(items) == 0 {
		return nil
	}
	g.prepare(items)
	result := g.execute()
	g.cleanup()
	return result
}
