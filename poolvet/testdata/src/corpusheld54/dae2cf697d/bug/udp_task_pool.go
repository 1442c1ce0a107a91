// Source: https://github.com/daeuniverse/dae/commit/2cf697d8ab9426c2cd8ee0eafab6ddab93b88a11
// ("fix: clear q.ch before put it into pool", part of
// https://github.com/daeuniverse/dae/pull/539), control/udp_task_pool.go.
//
// Bug: UdpTaskPool keeps per-key task channels in a sync.Pool. When a
// queue ages out, the timer callback closes q.closed, waits for the convoy
// goroutine to acknowledge via q.freed and puts the channel back into
// queueChPool. Tasks that were pushed into q.ch after the convoy saw
// q.closed (EmitTask looked q up before the timer deleted it) are still
// buffered in the channel, so the next queue that Gets this channel -- for
// a different UDP key -- runs the previous user's stale tasks.
//
// Fix: on q.closed the convoy first drains q.ch (clearloop) before closing
// q.freed, so the channel goes back into the pool empty.
//
// Check: noreset (at p.queueChPool.Put(ch): the pooled channel is put back
// still holding the previous queue's pending tasks)
package bug

import (
	"sync"
	"time"
)

const UdpTaskQueueLength = 128

var DefaultNatTimeout = 3 * time.Minute

type UdpTask = func()

type UdpTaskQueue struct {
	ch        chan UdpTask
	timer     *time.Timer
	agingTime time.Duration
	closed    chan struct{}
	freed     chan struct{}
}

func (q *UdpTaskQueue) Push(task UdpTask) {
	q.timer.Reset(q.agingTime)
	q.ch <- task
}

type UdpTaskPool struct {
	queueChPool sync.Pool
	// mu protects m
	mu sync.Mutex
	m  map[string]*UdpTaskQueue
}

func NewUdpTaskPool() *UdpTaskPool {
	p := &UdpTaskPool{
		queueChPool: sync.Pool{New: func() any {
			return make(chan UdpTask, UdpTaskQueueLength)
		}},
		mu: sync.Mutex{},
		m:  map[string]*UdpTaskQueue{},
	}
	return p
}

func (p *UdpTaskPool) convoy(q *UdpTaskQueue) {
	for {
		select {
		case <-q.closed:
			close(q.freed)
			return
		case t := <-q.ch:
			t()
		}
	}
}

func (p *UdpTaskPool) EmitTask(key string, task UdpTask) {
	p.mu.Lock()
	q, ok := p.m[key]
	if !ok {
		ch := p.queueChPool.Get().(chan UdpTask)
		q = &UdpTaskQueue{
			ch:        ch,
			timer:     nil,
			agingTime: DefaultNatTimeout,
			closed:    make(chan struct{}),
			freed:     make(chan struct{}),
		}
		q.timer = time.AfterFunc(q.agingTime, func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			if p.m[key] == q {
				delete(p.m, key)
			}
			close(q.closed)
			<-q.freed
			p.queueChPool.Put(ch) // want `noreset`
		})
		p.m[key] = q
		go p.convoy(q)
	}
	p.mu.Unlock()
	q.Push(task)
}

var DefaultUdpTaskPool = NewUdpTaskPool()
