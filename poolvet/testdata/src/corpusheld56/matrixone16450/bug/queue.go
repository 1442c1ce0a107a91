// Source: https://github.com/matrixorigin/matrixone/pull/16450
// (commit 892e8ef9b3e7a1198461309a1543e3784d8b1797, "Fix fifocache evict")
//
// The FIFO cache of the fileservice keeps its eviction queue as a list of
// queueParts recycled through a sync.Pool. dequeue handed out the value but
// left it in the part's values slice; when a part was drained it went back
// to partPool with every slot still pointing at evicted cache values (reset
// only truncates values[:0] when the part is taken out again). So the
// cache evicted values from its shards, but the queue parts, live and
// pooled, kept them reachable and their memory was never reclaimed.
// Fix: dequeue zeroes the slot it hands out, so no part (and no part put
// back into the pool) retains a reference to a dequeued value.
//
// Check: noreset (at p.partPool.Put(part) in dequeue: the part goes back to
// the pool still referencing all the values it held)
package bug

import "sync"

type Queue[T any] struct {
	head     *queuePart[T]
	tail     *queuePart[T]
	partPool sync.Pool
}

type queuePart[T any] struct {
	values []T
	begin  int
	next   *queuePart[T]
}

const maxQueuePartCapacity = 256

func NewQueue[T any]() *Queue[T] {
	queue := &Queue[T]{
		partPool: sync.Pool{
			New: func() any {
				return &queuePart[T]{
					values: make([]T, 0, maxQueuePartCapacity),
				}
			},
		},
	}
	part := queue.partPool.Get().(*queuePart[T])
	queue.head = part
	queue.tail = part
	return queue
}

func (p *Queue[T]) empty() bool {
	return p.head == p.tail &&
		p.head.begin == len(p.head.values)
}

func (p *queuePart[T]) reset() {
	p.values = p.values[:0]
	p.begin = 0
	p.next = nil
}

func (p *Queue[T]) enqueue(v T) {
	if len(p.head.values) >= maxQueuePartCapacity {
		// extend
		newPart := p.partPool.Get().(*queuePart[T])
		newPart.reset()
		p.head.next = newPart
		p.head = newPart
	}
	p.head.values = append(p.head.values, v)
}

func (p *Queue[T]) dequeue() (ret T, ok bool) {
	if p.empty() {
		return
	}

	if p.tail.begin >= len(p.tail.values) {
		// shrink
		if p.tail.next == nil {
			panic("impossible")
		}
		part := p.tail
		p.tail = p.tail.next
		p.partPool.Put(part) // want `noreset`
	}

	ret = p.tail.values[p.tail.begin]
	p.tail.begin++
	ok = true
	return
}
