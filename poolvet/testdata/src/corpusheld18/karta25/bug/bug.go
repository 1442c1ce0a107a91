// Package bug reproduces the shape of shengyanli1982/karta#25
// (https://github.com/shengyanli1982/karta/pull/25, commit
// fed24d7988d8b86777610206692bb8b87ab33af3, "Fixed a possible BUG in group
// element collection in sync.Pool"). Group.execute's workers take an
// element out of group.elements, nil the slot and put the element back
// into elementPool when done. A worker that saw the context cancelled
// called cleanupElements(taskIndex), which puts every element still in the
// slice from that index on, while the other workers were still loading
// slots and putting their elements: a slot loaded by a running worker and
// not yet nilled was put by the cleanup and again by that worker. The fix
// runs one cleanup after all workers have returned.
//
// Check: doubleput (elements of a slice field put by the running workers
// and, concurrently, by a cleanup that one worker starts over the same
// slice). The report is placed at the cleanup call inside the worker
// goroutine, the Put that duplicates the workers' own Puts; the docs do
// not name this exact shape, so the line is a judgement call.
package bug

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

func (g *Group) cleanupElements(start int64) {
	g.lock.Lock()
	defer g.lock.Unlock()
	for i := start; i < int64(len(g.elements)); i++ {
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
		g.cleanupElements(0)
	})
}

func (g *Group) prepare(items []any) {
	g.elements = make([]*Element, len(items))
	for i := range items {
		e := elementPool.Get()
		e.data = items[i]
		e.value = int64(i)
		g.elements[i] = e
	}
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
					g.cleanupElements(idx) // want `doubleput`
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
	return g.execute()
}
